import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AgentMatchError,
  createAgentMatchClient,
  EventSocket,
  EventSocketClosed,
  followEvents,
  ok,
  readEvents,
  type AgentEvent,
  type AgentMatchClient,
  type SocketFrame,
} from '../../clients/typescript/src/index.js';
import { openApiDocument } from '../../scripts/openapi-document.js';
import { registrationBody } from '../support/accounts.js';
import { startStack } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startStack>>;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

type Agent = { client: AgentMatchClient; token: string; user_id: number };
type MessageEvent = Extract<AgentEvent, { type: 'message.created' }>;

/** A fetch that notes each call it makes as `METHOD /path`, ids as `{id}`. */
function countingFetch(calls: string[]) {
  return (request: Request) => {
    calls.push(`${request.method} ${new URL(request.url).pathname.replace(/\/\d+/g, '/{id}')}`);
    return fetch(request);
  };
}

/** The calls the README's 5-call path makes, in its order, as `METHOD /path`. */
function readmeCalls(): string[] {
  const readme = readFileSync(new URL('../../clients/typescript/README.md', import.meta.url), 'utf8');
  const path = /## From nothing to a first message in 5 calls\n+```ts\n([\s\S]*?)```/.exec(readme)![1]!;
  return [...path.matchAll(/\.(GET|POST|PATCH|DELETE)\('([^']+)'/g)].map((m) => `${m[1]} ${m[2]!.replace(/\{\w+\}/g, '{id}')}`);
}

/** A registration body of test/support/accounts.ts, its gender one of the values the schema names. */
const registration = (overrides: Record<string, unknown> = {}) => ({ ...registrationBody(overrides), gender: 'woman' as const });

async function registerAgent(): Promise<Agent> {
  const guest = createAgentMatchClient({ baseUrl: stack.baseUrl });
  const { token, user_id } = await ok(guest.POST('/api/v1/agents/register', { body: registration() }));
  return { client: createAgentMatchClient({ baseUrl: stack.baseUrl, token }), token, user_id };
}

const send = (agent: Agent, matchId: number, body: string) =>
  ok(agent.client.POST('/api/v1/matches/{match_id}/messages', { params: { path: { match_id: matchId } }, body: { body } }));

const isMessage =
  (body: string) =>
  (frame: SocketFrame | AgentEvent): frame is MessageEvent =>
    frame.type === 'message.created' && frame.data.body === body;

/** Frames from `frames` up to and including the first that `last` picks. */
async function takeUntil<T>(frames: AsyncIterable<T>, last: (frame: T) => boolean): Promise<T[]> {
  const taken: T[] = [];
  for await (const frame of frames) {
    taken.push(frame);
    if (last(frame)) break;
  }
  return taken;
}

describe('the TypeScript client package against a real server', () => {
  let me: Agent;
  let them: Agent;
  let matchId: number;

  it("takes the README's 5 calls from nothing to a first message", async () => {
    them = await registerAgent();
    const calls: string[] = [];
    const guest = createAgentMatchClient({ baseUrl: stack.baseUrl, fetch: countingFetch(calls) });
    const registered = await ok(guest.POST('/api/v1/agents/register', { body: registration() }));
    const client = createAgentMatchClient({ baseUrl: stack.baseUrl, token: registered.token, fetch: countingFetch(calls) });
    me = { client, token: registered.token, user_id: registered.user_id };

    const feed = await ok(client.GET('/api/v1/discovery/feed', { params: { query: { limit: 100 } } }));
    const other = feed.items.find((entry) => entry.user.id === them.user_id)!.user;
    const like = await ok(client.POST('/api/v1/likes/{user_id}', { params: { path: { user_id: other.id }, query: { kind: 'like' } } }));
    expect(like.outcome).toBe('recorded');
    const back = await ok(them.client.POST('/api/v1/likes/{user_id}', { params: { path: { user_id: me.user_id }, query: { kind: 'like' } } }));
    expect(back.matched).toBe(true);
    const matches = await ok(client.GET('/api/v1/matches'));
    const match = matches.items.find((item) => item.user.id === them.user_id)!;
    const sent = await ok(
      client.POST('/api/v1/matches/{match_id}/messages', { params: { path: { match_id: match.id } }, body: { body: 'Hello! Jazz tonight?' } }),
    );
    matchId = match.id;

    expect(sent).toMatchObject({ match_id: match.id, sender_id: me.user_id, body: 'Hello! Jazz tonight?' });
    expect(calls).toEqual(readmeCalls());
    expect(calls).toHaveLength(5);
  });

  it("throws a refusal as an AgentMatchError carrying the service's error envelope", async () => {
    const unknown = await ok(me.client.POST('/api/v1/likes/{user_id}', { params: { path: { user_id: 424242 }, query: { kind: 'like' } } })).catch(
      (error: unknown) => error,
    );
    expect(unknown).toBeInstanceOf(AgentMatchError);
    expect(unknown).toMatchObject({ status: 404, code: 'not_found', details: [] });

    const guest = createAgentMatchClient({ baseUrl: stack.baseUrl });
    const weak = await ok(guest.POST('/api/v1/agents/register', { body: registration({ password: 'short' }) })).catch((error: unknown) => error);
    expect(weak).toBeInstanceOf(AgentMatchError);
    const refusal = weak as AgentMatchError;
    expect([refusal.status, refusal.code]).toEqual([400, 'validation_failed']);
    expect(refusal.details.map((detail) => detail.field)).toContain('password');
    expect(refusal.message).toMatch(/^Invalid request: password/);
  });

  it('reads the event inbox, follows it with wait, and resumes after the last event with since', async () => {
    const all = await readEvents(me.client, { since: '0' });
    expect(all.events.map((event) => event.type)).toEqual(['match.created', 'message.created']);
    const created = all.events[0]!;
    expect(created.type === 'match.created' && created.data.user.id).toBe(them.user_id);
    expect(all.next_cursor).toBe(all.events[1]!.id);

    // The other side follows its inbox from its newest event; a message sent meanwhile wakes its held read.
    const start = await readEvents(them.client);
    const stop = new AbortController();
    const following = takeUntil(followEvents(them.client, { since: start.next_cursor, wait: 20, signal: stop.signal }), isMessage('Second'));
    await send(me, matchId, 'Second');
    const followed = await following;
    stop.abort();
    expect(followed.map((event) => event.type)).toEqual(['message.created']);

    await send(me, matchId, 'Third');
    const resumed = await readEvents(them.client, { since: followed.at(-1)!.id });
    expect(resumed.events.map((event) => event.type === 'message.created' && event.data.body)).toEqual(['Third']);
  });

  it('replays over the socket with since=0, resumes after the last event it received, relays typing, and ends when the token is revoked', async () => {
    const first = new EventSocket({ baseUrl: stack.baseUrl, token: me.token, since: '0' });
    const replayed = await takeUntil(first, isMessage('Third'));
    expect(replayed.map((frame) => frame.type)).toEqual(['match.created', 'message.created', 'message.created', 'message.created']);
    const lastSeen = first.since!;
    expect(lastSeen).toBe((replayed.at(-1) as AgentEvent).id);

    await send(them, matchId, 'Missed while away');
    const resumed = new EventSocket({ baseUrl: stack.baseUrl, token: me.token, since: lastSeen });
    const frames = resumed[Symbol.asyncIterator]();
    const next = async () => (await frames.next()).value as SocketFrame;
    expect(await next()).toMatchObject({ type: 'message.created', data: { body: 'Missed while away' } });

    const theirs = new EventSocket({ baseUrl: stack.baseUrl, token: them.token });
    await theirs.opened;
    resumed.typing(matchId);
    expect(await takeUntil(theirs, (frame) => frame.type === 'typing')).toEqual([{ type: 'typing', data: { match_id: matchId, user_id: me.user_id } }]);

    await send(them, matchId, 'Live');
    expect(await next()).toMatchObject({ type: 'message.created', data: { body: 'Live' } });

    await ok(me.client.POST('/api/v1/auth/logout'));
    const ended = await frames.next().catch((error: unknown) => error);
    expect(ended).toBeInstanceOf(EventSocketClosed);
    expect(ended).toMatchObject({ code: 4003 });
  });

  it('was typed from the document this server serves', async () => {
    const guest = createAgentMatchClient({ baseUrl: stack.baseUrl });
    const served = await ok(guest.GET('/api/v1/openapi.json'));
    expect(served).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
  });
});
