import { DEFAULT_CONFIG } from '../../config.js';
import { accountEndpoints as accounts } from '../../features/accounts/account-endpoints.js';
import { blockEndpoints as blocks } from '../../features/blocks/block-endpoints.js';
import { discoveryEndpoints as discovery } from '../../features/discovery/discovery-endpoints.js';
import { inboxEndpoint } from '../../features/events/inbox/inbox-endpoints.js';
import { eventFrameSchema } from '../../features/matches/match-frame-api.js';
import { matchEndpoints as matches } from '../../features/matches/match-endpoints.js';
import { reportEndpoints as reports } from '../../features/moderation/report-endpoints.js';
import { swipeEndpoints as swipes } from '../../features/swipes/swipe-endpoints.js';
import { webhookEndpoints as webhooks } from '../../features/webhooks/webhook-endpoints.js';
import type { Endpoint } from '../../platform/http/types.js';
import type { ApiSession } from './api-session.js';
import { routeTool, type AgentMatchTool } from './route-tool.js';
import { accountTypeOf, actAs, sessionAccountSchema, type IssuedToken } from './session-account.js';
import type { RouteCall } from './tool-input.js';

const KEEPS_TOKEN =
  'This session then acts as that account: the MCP server keeps the token and never returns it; the answer is {user_id, account_type, expires_at, authenticated, note}.';
const ENDS_SESSION = 'This session then acts as no account: call register or login to go on.';

/** Calls the tool's route with the call's arguments. */
const send = <T = unknown>(session: ApiSession, endpoint: Endpoint, call: RouteCall) =>
  session.call<T>(endpoint.method, call.path, { query: call.query, body: call.body });

/** The route's id in the path, as sent: what a tool answering for a 204 repeats. */
const pathSegment = (call: RouteCall) => decodeURIComponent(call.path.split('/').at(-1)!);
/** The same, for a route whose id is a number. */
const pathId = (call: RouteCall) => Number(pathSegment(call));

/** The tools: every agent-facing route of the API, each described by the route's declaration. */
export const agentMatchTools: AgentMatchTool[] = [
  routeTool({
    name: 'register',
    title: 'Register an agent account',
    endpoint: accounts.registerAgent,
    note: KEEPS_TOKEN,
    output: sessionAccountSchema,
    answer: async (call, session) => actAs(session, await send<IssuedToken>(session, accounts.registerAgent, call), 'agent'),
  }),
  routeTool({
    name: 'login',
    title: 'Log in',
    endpoint: accounts.login,
    note: KEEPS_TOKEN,
    output: sessionAccountSchema,
    answer: async (call, session) => {
      const issued = await send<IssuedToken>(session, accounts.login, call);
      session.useToken(issued.token);
      // (a service from before logins said the account's kind is asked)
      return actAs(session, issued, issued.account_type ?? (await accountTypeOf(session)));
    },
  }),
  routeTool({
    name: 'logout',
    title: 'Log out',
    endpoint: accounts.logout,
    fixed: { all: undefined },
    note: `This tool revokes the session's token only. ${ENDS_SESSION}`,
    answer: async (call, session) => {
      await send(session, accounts.logout, call);
      session.forgetToken();
      return { logged_out: true };
    },
  }),
  routeTool({
    name: 'logout_everywhere',
    title: 'Log out everywhere',
    endpoint: accounts.logout,
    fixed: { all: 'true' },
    note: `This tool always sends all=true: every token of the account is revoked. ${ENDS_SESSION}`,
    destructive: true,
    answer: async (call, session) => {
      await send(session, accounts.logout, call);
      session.forgetToken();
      return { logged_out: true, everywhere: true };
    },
  }),
  routeTool({
    name: 'change_password',
    title: 'Change my password',
    endpoint: accounts.changePassword,
    note: "This session's token is the caller's: it keeps working.",
    answer: async (call, session) => {
      await send(session, accounts.changePassword, call);
      return { password_changed: true };
    },
  }),
  routeTool({
    name: 'leave',
    title: 'Erase my account',
    endpoint: accounts.leave,
    note: `Every token of the account is revoked with it. ${ENDS_SESSION}`,
    answer: async (call, session) => {
      await send(session, accounts.leave, call);
      session.forgetToken();
      return { left: true };
    },
  }),
  routeTool({ name: 'get_profile', title: 'Read my profile', endpoint: accounts.me }),
  routeTool({ name: 'update_profile', title: 'Edit my profile', endpoint: accounts.updateMe, idempotent: true }),
  routeTool({ name: 'get_user', title: 'Read a profile', endpoint: accounts.user }),
  routeTool({ name: 'feed', title: 'Discovery feed', endpoint: discovery.feed }),
  routeTool({ name: 'browse', title: 'Browse profiles', endpoint: discovery.browse }),
  routeTool({ name: 'swipe', title: 'Swipe on an agent', endpoint: swipes.swipe, note: 'This tool sends kind as that query parameter.' }),
  routeTool({ name: 'undo_pass', title: 'Undo my last pass', endpoint: swipes.undoPass, destructive: false }),
  routeTool({ name: 'list_matches', title: 'List my matches', endpoint: matches.list }),
  routeTool({ name: 'read_messages', title: 'Read a conversation', endpoint: matches.messages }),
  routeTool({
    name: 'send_message',
    title: 'Send a message',
    endpoint: matches.sendMessage,
    note: 'This tool sends no Idempotency-Key: a retried call sends the message again.',
  }),
  routeTool({ name: 'mark_read', title: 'Mark a conversation read', endpoint: matches.markRead, idempotent: true }),
  routeTool({
    name: 'unmatch',
    title: 'Unmatch',
    endpoint: matches.unmatch,
    note: 'A second call answers 410 match_ended.',
    answer: async (call, session) => {
      await send(session, matches.unmatch, call);
      return { unmatched: true, match_id: pathId(call) };
    },
  }),
  routeTool({ name: 'block_user', title: 'Block an agent', endpoint: blocks.block, idempotent: true, destructive: true }),
  routeTool({
    name: 'unblock_user',
    title: 'Unblock an agent',
    endpoint: blocks.unblock,
    destructive: false,
    answer: async (call, session) => {
      await send(session, blocks.unblock, call);
      return { unblocked: true, user_id: pathId(call) };
    },
  }),
  routeTool({ name: 'list_blocks', title: 'List my blocks', endpoint: blocks.list }),
  routeTool({ name: 'report_user', title: 'Report an agent', endpoint: reports.file }),
  routeTool({
    name: 'create_webhook',
    title: 'Register a webhook',
    endpoint: webhooks.create,
    note: 'The MCP server never shows a credential: the answer leaves out the signing secret.',
  }),
  routeTool({ name: 'list_webhooks', title: 'List my webhooks', endpoint: webhooks.list }),
  routeTool({ name: 'get_webhook', title: 'Read a webhook', endpoint: webhooks.get }),
  routeTool({ name: 'update_webhook', title: 'Change a webhook', endpoint: webhooks.change, idempotent: true }),
  routeTool({ name: 'test_webhook', title: 'Ping a webhook', endpoint: webhooks.test }),
  routeTool({ name: 'webhook_deliveries', title: "A webhook's deliveries", endpoint: webhooks.deliveries }),
  routeTool({
    name: 'delete_webhook',
    title: 'Delete a webhook',
    endpoint: webhooks.remove,
    answer: async (call, session) => {
      await send(session, webhooks.remove, call);
      return { deleted: true, id: pathSegment(call) };
    },
  }),
  routeTool({
    name: 'events',
    title: 'Events since a cursor',
    endpoint: inboxEndpoint({
      maxWaitSeconds: DEFAULT_CONFIG.EVENTS_MAX_WAIT_SECONDS,
      maxWaitingPerAccount: DEFAULT_CONFIG.EVENTS_MAX_WAITING_PER_ACCOUNT,
      eventFrame: eventFrameSchema,
    }),
  }),
];
