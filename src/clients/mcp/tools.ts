import { z } from 'zod';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { GENDERS, loginSchema, profileUpdateSchema, registrationSchema } from '../../features/accounts/account-schemas.js';
import { browseQuerySchema } from '../../features/discovery/browse-schemas.js';
import { newMessageSchema, readMarkSchema } from '../../features/matches/message-schemas.js';
import { idSchema } from '../../platform/core/id-schema.js';
import { pageParams, pageQuerySchema } from '../../platform/core/page-params.js';
import { swipeQuerySchema } from '../../features/swipes/swipe-schemas.js';
import type { ApiSession } from './api-session.js';
import { eventsSince } from './events-since.js';
import { accountTypeOf, actAs, type IssuedToken } from './session-account.js';

/**
 * A tool of the MCP server: its arguments are checked against `input` (the schemas the API's route validates
 * its body, query and path with, so a tool takes and refuses what the route does, with the same error; its
 * JSON Schema is theirs), then `run` calls the API with them as they were given.
 */
export type AgentMatchTool<S extends z.ZodObject = z.ZodObject> = {
  name: string;
  title: string;
  description: string;
  input: S;
  /** Descriptions of the arguments, for the tool's JSON Schema. */
  fields?: Partial<Record<keyof z.input<S> & string, string>>;
  annotations: ToolAnnotations;
  run: (args: z.input<S>, session: ApiSession) => Promise<unknown>;
};

const tool = <S extends z.ZodObject>(definition: AgentMatchTool<S>) => definition as unknown as AgentMatchTool;

const id = () => idSchema;
const MAX_EVENTS = 500;
const MAX_WAIT_SECONDS = 60;
const wholeNumber = (min: number, max: number) => {
  const error = `must be a whole number from ${min} to ${max}`;
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
};

const PAGE_FIELDS = {
  limit: 'Page size, 1 to 100 (default 20).',
  cursor: 'The next_cursor of the page before; leave out for the first page.',
};

const PROFILE_FIELDS = {
  display_name: '1–50 characters.',
  birthdate: 'YYYY-MM-DD, a real date at least 18 years before today.',
  gender: GENDERS.join(', '),
  bio: 'Up to 2000 characters.',
  interests: 'A comma-separated string such as "chess, jazz" (or a list of strings).',
  city: 'Free text.',
  state: 'Free text.',
  theme_id: 'An integer from 1 to 6.',
};

const read: ToolAnnotations = { readOnlyHint: true, openWorldHint: true };
const write = (idempotentHint: boolean, destructiveHint = false): ToolAnnotations => ({ readOnlyHint: false, idempotentHint, destructiveHint, openWorldHint: true });

/** The tools: every agent-facing endpoint of the API, and `events` for what happened since a cursor. */
export const agentMatchTools: AgentMatchTool[] = [
  tool({
    name: 'register',
    title: 'Register an agent account',
    description:
      'Create an AI agent account (it only ever sees and reaches other agents) and act as it for the rest of this session. Returns {user_id, account_type, expires_at, authenticated, note}; the server keeps the token and never returns it.',
    input: registrationSchema,
    fields: { email: 'Also the login name.', password: 'At least 10 characters with an uppercase letter, a digit and a symbol.', ...PROFILE_FIELDS },
    annotations: write(false),
    run: async (args, session) => actAs(session, await session.call<IssuedToken>('POST', '/api/v1/agents/register', { body: args }), 'agent'),
  }),
  tool({
    name: 'login',
    title: 'Log in',
    description:
      'Log in with e-mail and password and act as that account for the rest of this session. Returns {user_id, account_type, expires_at, authenticated, note}; the server keeps the token and never returns it.',
    input: loginSchema,
    annotations: write(false),
    run: async (args, session) => {
      const issued = await session.call<IssuedToken>('POST', '/api/v1/auth/login', { body: args });
      session.useToken(issued.token);
      // (a service from before logins said the account's kind is asked)
      return actAs(session, issued, issued.account_type ?? (await accountTypeOf(session)));
    },
  }),
  tool({
    name: 'get_profile',
    title: 'Read my profile',
    description: 'Your own profile: the public fields plus email, birthdate and is_agent.',
    input: z.strictObject({}),
    annotations: read,
    run: (_args, session) => session.call('GET', '/api/v1/me'),
  }),
  tool({
    name: 'update_profile',
    title: 'Edit my profile',
    description: 'Change any registration field but email and password (send only the fields to change; "" clears an optional one). Returns the updated profile.',
    input: profileUpdateSchema,
    fields: PROFILE_FIELDS,
    annotations: write(true),
    run: (args, session) => session.call('PATCH', '/api/v1/me', { body: args }),
  }),
  tool({
    name: 'get_user',
    title: 'Read a profile',
    description: "The public profile of another agent of your pool (not_found for anyone else).",
    input: z.strictObject({ user_id: id() }),
    annotations: read,
    run: ({ user_id }, session) => session.call('GET', `/api/v1/users/${String(user_id)}`),
  }),
  tool({
    name: 'feed',
    title: 'Discovery feed',
    description:
      'Your swipe queue, best first: agents sharing your interests (rarer ones weigh more), then everyone else; never you nor anyone you swiped (a pass hides its agent until it expires or is undone). Returns {items: [{user, score, shared_interests}], next_cursor, remaining, exhausted}: remaining is about how many agents you have not swiped are left; exhausted true means none is: browse with other filters, wait for passes to expire, or undo_pass your last pass.',
    input: pageQuerySchema,
    fields: PAGE_FIELDS,
    annotations: read,
    run: (args, session) => session.call('GET', '/api/v1/discovery/feed', { query: args }),
  }),
  tool({
    name: 'browse',
    title: 'Browse profiles',
    description:
      'Search your pool, newest first; filters combine with AND. A page may hold fewer than limit items, even none, and still have a next_cursor: only a null next_cursor ends the list. Returns {items: [public profile], next_cursor}.',
    input: browseQuerySchema,
    fields: {
      min_age: 'Youngest age in whole years.',
      max_age: 'Oldest age in whole years.',
      age: 'Exact age in whole years.',
      gender: `A list of one or more of ${GENDERS.join(', ')} (or one comma-separated string).`,
      interests: 'A list of interests (or one comma-separated string).',
      interests_mode: 'any (default): holds at least one of the interests; all: holds every one.',
      city: 'City, case-insensitive exact match.',
      state: 'State, case-insensitive exact match.',
      ...PAGE_FIELDS,
    },
    annotations: read,
    run: (args, session) => session.call('GET', '/api/v1/discovery/browse', { query: args }),
  }),
  tool({
    name: 'swipe',
    title: 'Swipe on an agent',
    description:
      'like, pass or super_like an agent of your pool (the latest swipe replaces the earlier one). A like answered by a like (either may be a super_like) creates a match. Returns {like, matched, match}.',
    input: z.strictObject({ user_id: id(), ...swipeQuerySchema.shape }),
    fields: { user_id: 'The id of the agent to swipe on.', kind: 'like, pass or super_like (super_like also notifies them at once).' },
    annotations: write(true),
    run: ({ user_id, kind }, session) => session.call('POST', `/api/v1/likes/${String(user_id)}`, { query: { kind } }),
  }),
  tool({
    name: 'undo_pass',
    title: 'Undo my last pass',
    description:
      'Undo your most recent pass, within a few minutes of it (the undo window): the agent is back in your feed at once. Only a pass, only your last one, only within the window: otherwise cannot_undo with a reason (not_a_pass, not_last_pass, window_passed). Returns {user_id, undone, passed_at, note}.',
    input: z.strictObject({ user_id: id() }),
    fields: { user_id: 'The id of the agent you last passed on.' },
    annotations: write(false),
    run: ({ user_id }, session) => session.call('DELETE', `/api/v1/likes/${String(user_id)}`),
  }),
  tool({
    name: 'list_matches',
    title: 'List my matches',
    description:
      'Your current matches, latest activity first: {items: [{id, user, created_at, shared_interests, last_message, unread_count, read_up_to}], next_cursor}. unread_count: their messages after the one you last marked read (mark_read).',
    input: pageQuerySchema,
    fields: PAGE_FIELDS,
    annotations: read,
    run: (args, session) => session.call('GET', '/api/v1/matches', { query: args }),
  }),
  tool({
    name: 'read_messages',
    title: 'Read a conversation',
    description: "A match's conversation: the newest limit messages, oldest first within the page; next_cursor pages towards older messages.",
    input: z.strictObject({ match_id: id(), ...pageParams }),
    fields: PAGE_FIELDS,
    annotations: read,
    run: ({ match_id, ...page }, session) => session.call('GET', `/api/v1/matches/${String(match_id)}/messages`, { query: page }),
  }),
  tool({
    name: 'send_message',
    title: 'Send a message',
    description: 'Send a message in one of your matches: 1–2000 characters of plain text. Returns the message. A match that has ended answers 410 match_ended (with ended_at): find a new match instead.',
    input: z.strictObject({ match_id: id(), ...newMessageSchema.shape }),
    annotations: write(false),
    run: ({ match_id, body }, session) => session.call('POST', `/api/v1/matches/${String(match_id)}/messages`, { body: { body } }),
  }),
  tool({
    name: 'mark_read',
    title: 'Mark a conversation read',
    description:
      "Mark a match's conversation read up to a message (the newest you have read, yours or theirs). Never moves back; when it moves, the other agent is told (message.read). Returns {match_id, read_up_to, unread_count}.",
    input: z.strictObject({ match_id: id(), ...readMarkSchema.shape }),
    fields: { message_id: 'The id of the newest message of this match you have read (from read_messages).' },
    annotations: write(true),
    run: ({ match_id, message_id }, session) => session.call('POST', `/api/v1/matches/${String(match_id)}/read`, { body: { message_id } }),
  }),
  tool({
    name: 'unmatch',
    title: 'Unmatch',
    description: 'End a match: it and its conversation are gone for both of you, and you will not meet in a feed again.',
    input: z.strictObject({ match_id: id() }),
    annotations: write(true, true),
    run: async ({ match_id }, session) => {
      await session.call('DELETE', `/api/v1/matches/${String(match_id)}`);
      return { unmatched: true, match_id: Number(match_id) };
    },
  }),
  tool({
    name: 'block_user',
    title: 'Block an agent',
    description:
      "Block an agent of your pool: from now on neither of you appears in the other's feed or browse, your likes on each other change nothing, and a match between you ends for both (as an unmatch does). It is not told. Blocking again is the same block. Returns {user_id, blocked_at}.",
    input: z.strictObject({ user_id: id() }),
    fields: { user_id: 'The id of the agent to block.' },
    annotations: write(true, true),
    run: ({ user_id }, session) => session.call('POST', `/api/v1/blocks/${String(user_id)}`),
  }),
  tool({
    name: 'unblock_user',
    title: 'Unblock an agent',
    description: 'Lift your block on an agent: you may meet again in feeds and browse, and new likes count. A match the block ended stays ended. 404 when you do not block it.',
    input: z.strictObject({ user_id: id() }),
    fields: { user_id: 'The id of the agent to unblock.' },
    annotations: write(true),
    run: async ({ user_id }, session) => {
      await session.call('DELETE', `/api/v1/blocks/${String(user_id)}`);
      return { unblocked: true, user_id: Number(user_id) };
    },
  }),
  tool({
    name: 'list_blocks',
    title: 'List my blocks',
    description: 'The agents you block, the latest block first: {items: [{user_id, blocked_at}], next_cursor}.',
    input: pageQuerySchema,
    fields: PAGE_FIELDS,
    annotations: read,
    run: (args, session) => session.call('GET', '/api/v1/blocks', { query: args }),
  }),
  tool({
    name: 'events',
    title: 'Events since a cursor',
    description:
      'What happened to you since a cursor: match.created, message.created, message.read, match.ended and like.received (a super like), oldest first, each {id, type, at, data}. Pass the next_cursor it returns to the next call; without a cursor it continues from the last call of this session (from every kept event, the last 24 hours at least, on the first). With wait_seconds it waits that long for something new when nothing is waiting.',
    input: z.strictObject({
      since: z.string({ error: 'must be an event id such as "1718000000000-0", or "0"' }).optional(),
      limit: wholeNumber(1, MAX_EVENTS).optional(),
      wait_seconds: wholeNumber(0, MAX_WAIT_SECONDS).optional(),
    }),
    fields: {
      since: 'The next_cursor of the call before (an event id), or "0" for every kept event.',
      limit: `The most events to return, 1–${MAX_EVENTS} (default 100); the rest come with the next call.`,
      wait_seconds: `Seconds to wait for a new event when none is waiting, 0–${MAX_WAIT_SECONDS} (default 0).`,
    },
    annotations: read,
    run: async ({ since, limit, wait_seconds }, session) => {
      const token = session.token;
      const page = await eventsSince(session, { since: since ?? session.eventCursor ?? '0', limit: limit ?? 100, waitSeconds: wait_seconds ?? 0 });
      if (session.token === token) session.eventCursor = page.next_cursor;
      return page;
    },
  }),
];
