import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAgent, registerMember, type Account } from '../support/accounts.js';
import { EventSocket } from '../support/event-socket.js';
import { startStack } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startStack>>;
const open: EventSocket[] = [];

beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  for (const socket of open) socket.ws.terminate();
  await stack?.stop();
});

async function socketFor(account?: Account, query = '') {
  const path = account ? `/api/v1/ws${query}` : `/api/v1/spectator/stream${query}`;
  const socket = await EventSocket.open(stack.baseUrl, path, account ? { token: account.token } : {});
  open.push(socket);
  return socket;
}

async function match(a: Account, b: Account) {
  expect((await stack.api.post(`/api/v1/likes/${b.user_id}?kind=like`, { token: a.token })).status).toBe(200);
  const res = await stack.api.post(`/api/v1/likes/${a.user_id}?kind=like`, { token: b.token });
  expect(res.body.matched).toBe(true);
  return res.body.match.id as number;
}

async function send(from: Account, matchId: number, body: string) {
  const res = await stack.api.post(`/api/v1/matches/${matchId}/messages`, { token: from.token, body: { body } });
  expect(res.status).toBe(201);
  return res.body;
}

describe('events of likes, matches and messages over /api/v1/ws', () => {
  it('tells both agents of a match and of each message, each with their own view', async () => {
    const a = await registerAgent(stack.api, { display_name: 'Ada', interests: 'chess, jazz' });
    const b = await registerAgent(stack.api, { display_name: 'Bo', interests: 'jazz, tea' });
    const [sa, sb] = await Promise.all([socketFor(a), socketFor(b)]);
    const matchId = await match(a, b);
    const [ma] = await sa.waitFor(1);
    const [mb] = await sb.waitFor(1);
    expect(ma).toMatchObject({ type: 'match.created', data: { id: matchId, user: { id: b.user_id, display_name: 'Bo' }, shared_interests: ['jazz'] } });
    expect(mb).toMatchObject({ type: 'match.created', data: { id: matchId, user: { id: a.user_id, display_name: 'Ada' } } });
    expect(JSON.stringify([ma, mb])).not.toMatch(/email|birthdate|password/);

    const message = await send(a, matchId, 'Do you like jazz?');
    const [, ea] = await sa.waitFor(2);
    const [, eb] = await sb.waitFor(2);
    for (const frame of [ea, eb]) expect(frame).toMatchObject({ type: 'message.created', data: message });

    expect((await stack.api.delete(`/api/v1/matches/${matchId}`, { token: b.token })).status).toBe(204);
    const [, , endedA] = await sa.waitFor(3);
    expect(endedA).toMatchObject({ type: 'match.ended', data: { match_id: matchId } });
    expect((await sb.waitFor(3))[2]!.type).toBe('match.ended');
  });

  it('tells the target of a super like at once, and no one else', async () => {
    const a = await registerAgent(stack.api, { display_name: 'Super Sender' });
    const b = await registerAgent(stack.api);
    const [sa, sb] = await Promise.all([socketFor(a), socketFor(b)]);
    expect((await stack.api.post(`/api/v1/likes/${b.user_id}?kind=super_like`, { token: a.token })).status).toBe(200);
    const [frame] = await sb.waitFor(1);
    expect(frame).toMatchObject({ type: 'like.received', data: { from: { id: a.user_id, display_name: 'Super Sender' }, kind: 'super_like' } });
    // b likes back: the match is the first frame a gets, so no like.received came before it.
    expect((await stack.api.post(`/api/v1/likes/${a.user_id}?kind=like`, { token: b.token })).body.matched).toBe(true);
    expect(await sa.framesBefore((f) => f.type === 'match.created')).toEqual([]);
  });

  it("tells the target of a swiper's super like once, however often it alternates with a pass", async () => {
    const a = await registerAgent(stack.api);
    const b = await registerAgent(stack.api);
    const sb = await socketFor(b);
    for (let i = 0; i < 10; i++) {
      for (const kind of ['super_like', 'pass']) {
        expect((await stack.api.post(`/api/v1/likes/${b.user_id}?kind=${kind}`, { token: a.token })).status).toBe(200);
      }
    }
    expect((await stack.api.post(`/api/v1/likes/${b.user_id}?kind=super_like`, { token: a.token })).status).toBe(200);
    // b likes back: the match is the marker; every super like was announced before it, if at all.
    expect((await stack.api.post(`/api/v1/likes/${a.user_id}?kind=like`, { token: b.token })).body.matched).toBe(true);
    const before = await sb.framesBefore((f) => f.type === 'match.created');
    expect(before.map((f) => f.type)).toEqual(['like.received']);
  });

  it('replays exactly the events missed while disconnected, then continues live', async () => {
    const a = await registerAgent(stack.api);
    const b = await registerAgent(stack.api);
    const first = await socketFor(a);
    const matchId = await match(a, b);
    const [matched] = await first.waitFor(1);
    await first.close();
    await send(b, matchId, 'one');
    await send(b, matchId, 'two');
    const back = await socketFor(a, `?since=${encodeURIComponent(matched!.id)}`);
    const replayed = await back.waitFor(2);
    expect(replayed.map((f) => f.data.body)).toEqual(['one', 'two']);
    await send(b, matchId, 'three');
    await send(b, matchId, 'marker');
    const beforeMarker = await back.framesBefore((f) => f.data.body === 'marker');
    expect(beforeMarker.map((f) => f.data.body)).toEqual(['one', 'two', 'three']);
    expect(new Set(beforeMarker.map((f) => f.id)).size).toBe(3);
  });
});

describe('the spectator stream and JSON', () => {
  it('streams agent matches, messages and unmatches, marked synthetic, with nothing private', async () => {
    const spectator = await socketFor();
    const a = await registerAgent(stack.api, { display_name: 'Spec A', theme_id: 3, interests: 'go, tea' });
    const b = await registerAgent(stack.api, { display_name: 'Spec B', theme_id: 5, interests: 'tea' });
    const matchId = await match(a, b);
    await send(a, matchId, '<img src=x onerror=alert(1)>');
    expect((await stack.api.delete(`/api/v1/matches/${matchId}`, { token: a.token })).status).toBe(204);
    const created = await spectator.waitForFrame((f) => f.type === 'match.created' && f.data.match.id === matchId);
    expect(created).toMatchObject({
      synthetic: true,
      data: {
        synthetic: true,
        match: {
          id: matchId,
          shared_interests: ['tea'],
          users: [
            { display_name: 'Spec A', theme_id: 3 },
            { display_name: 'Spec B', theme_id: 5 },
          ],
        },
      },
    });
    const message = await spectator.waitForFrame((f) => f.type === 'message.created' && f.data.message.match_id === matchId);
    expect(message.data).toMatchObject({ synthetic: true, message: { body: '<img src=x onerror=alert(1)>', sender_id: a.user_id } });
    const ended = await spectator.waitForFrame((f) => f.type === 'match.ended' && f.data.match_id === matchId);
    expect(ended.synthetic).toBe(true);
    const text = JSON.stringify(spectator.frames);
    expect(text).not.toMatch(/email|birthdate|password|token/i);
    expect(text).not.toContain(a.email);
  });

  it('never shows members: their matches and messages reach their own sockets only', async () => {
    const spectator = await socketFor();
    const m1 = await registerMember(stack.api, { display_name: 'Member One' });
    const m2 = await registerMember(stack.api, { display_name: 'Member Two' });
    const own = await socketFor(m1);
    const matchId = await match(m1, m2);
    await send(m2, matchId, 'member secret');
    await own.waitFor(2);
    const a = await registerAgent(stack.api);
    const b = await registerAgent(stack.api);
    const agentMatch = await match(a, b);
    await spectator.waitForFrame((f) => f.type === 'match.created' && f.data.match.id === agentMatch);
    expect(JSON.stringify(spectator.frames)).not.toMatch(/Member One|Member Two|member secret/);
    const list = await stack.api.get('/api/v1/spectator/matches?limit=100');
    expect(JSON.stringify(list.body)).not.toMatch(/Member One|Member Two|member secret/);
    expect((await stack.api.get(`/api/v1/spectator/matches/${matchId}/messages`)).status).toBe(404);
  });

  it('lists current agent matches and their messages as JSON, every payload synthetic, paged by cursor', async () => {
    const a = await registerAgent(stack.api, { display_name: 'List A', interests: 'maps' });
    const b = await registerAgent(stack.api, { display_name: 'List B', interests: 'maps' });
    const c = await registerAgent(stack.api, { display_name: 'List C', interests: 'maps' });
    const ab = await match(a, b);
    const ac = await match(a, c);
    for (let i = 1; i <= 3; i++) await send(i % 2 ? a : b, ab, `hello ${i}`);

    const first = await stack.api.get('/api/v1/spectator/matches?limit=1');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ synthetic: true, next_cursor: expect.any(String) });
    expect(first.body.items).toHaveLength(1);
    const newest = first.body.items[0];
    expect(newest).toMatchObject({ id: ab, synthetic: true, shared_interests: ['maps'], last_message: { body: 'hello 3' } });
    expect(newest.users.map((u: { display_name: string }) => u.display_name).sort()).toEqual(['List A', 'List B']);
    expect(Object.keys(newest.users[0]).sort()).toEqual(['display_name', 'id', 'interests', 'theme_id']);
    const second = await stack.api.get(`/api/v1/spectator/matches?limit=1&cursor=${first.body.next_cursor}`);
    expect(second.body.items[0].id).toBe(ac);

    const messages = await stack.api.get(`/api/v1/spectator/matches/${ab}/messages?limit=2`);
    expect(messages.status).toBe(200);
    expect(messages.body).toMatchObject({ synthetic: true, next_cursor: expect.any(String) });
    expect(messages.body.items.map((m: { body: string }) => m.body)).toEqual(['hello 2', 'hello 3']);
    expect(messages.body.items.every((m: { synthetic: boolean }) => m.synthetic === true)).toBe(true);
    const older = await stack.api.get(`/api/v1/spectator/matches/${ab}/messages?limit=2&cursor=${messages.body.next_cursor}`);
    expect(older.body.items.map((m: { body: string }) => m.body)).toEqual(['hello 1']);
    expect(older.body.next_cursor).toBeNull();
  });

  it('answers bad input with clear 4xx errors', async () => {
    expect((await stack.api.get('/api/v1/spectator/matches?limit=0')).body.error.code).toBe('validation_failed');
    expect((await stack.api.get('/api/v1/spectator/matches?cursor=nope!')).status).toBe(400);
    expect((await stack.api.get('/api/v1/spectator/matches?colour=red')).status).toBe(400);
    expect((await stack.api.get('/api/v1/spectator/matches/abc/messages')).status).toBe(400);
    const missing = await stack.api.get('/api/v1/spectator/matches/999999/messages');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
  });

  it('serves the page and its script modules with a policy that forbids inline scripts', async () => {
    const page = await stack.api.get('/spectator');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.text).toMatch(/synthetic/i);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self'/);
    expect(csp).not.toMatch(/unsafe-inline/);
    expect(page.text).not.toMatch(/<script>(?!<\/script>)|<script(?![^>]*\bsrc=)[^>]*>/);
    expect((await stack.api.get('/spectator/app.js')).headers['content-type']).toMatch(/javascript/);
    expect((await stack.api.get('/spectator/style.css')).headers['content-type']).toMatch(/text\/css/);
    // the script and every module it imports, one level down
    const script = (await stack.api.get('/spectator/app.js')).text;
    const modules = [...script.matchAll(/from '\.\/(modules\/[\w-]+\.js)'/g)].map(([, path]) => `/spectator/${path}`);
    expect(modules.length).toBeGreaterThan(3);
    for (const path of modules) {
      const module = await stack.api.get(path);
      expect(module.status).toBe(200);
      expect(module.headers['content-type']).toMatch(/javascript/);
      expect(module.text).not.toMatch(/innerHTML|insertAdjacentHTML|document\.write/);
    }
    expect(script).not.toMatch(/innerHTML|insertAdjacentHTML|document\.write/);
  });
});
