import { createHash } from 'node:crypto';
import keySlot from 'cluster-key-slot';
import type { RedisClient } from '../../src/platform/redis/redis.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../src/platform/redis/keys.js';
import { emailBucket, indexPartition } from '../../src/platform/redis/key-space.js';
import { loadScripts } from '../../src/platform/redis/script-loader.js';
import { LUA_DIRS, SHARED_LUA_DIR } from '../../src/platform/redis/scripts.js';
import { registerAgent, registerMember, type Account } from '../support/accounts.js';
import { EventSocket } from '../support/event-socket.js';
import { eventually } from '../support/eventually.js';
import { RedisMonitor } from '../support/redis-monitor.js';
import { startStack } from '../support/stack.js';

/**
 * Which Lua scripts touch keys of one Redis Cluster hash slot (cluster-ready) and which touch several.
 * A script marked `many-slots` says which keys spread it; `unreached` says why the flow below cannot call it (a
 * one-slot script the flow cannot call is run on a cluster by the test named there, which a second slot would fail).
 * Fixing a script's keys makes this test fail until the script moves to `one-slot` here.
 */
type SlotEntry = { slots: 'one-slot'; unreached?: string } | { slots: 'many-slots'; why: string; unreached?: string };
const SCRIPT_SLOTS: Record<string, SlotEntry> = {
  append_event: { slots: 'one-slot' },
  add_block: { slots: 'one-slot' },
  adjust_pool_size: { slots: 'one-slot' },
  reserve_ids: { slots: 'one-slot' },
  advance_epoch: { slots: 'one-slot' },
  append_message: { slots: 'one-slot' },
  block_pair: { slots: 'one-slot' },
  begin_swipe: { slots: 'one-slot' },
  browse: { slots: 'one-slot' },
  change_password: { slots: 'one-slot' },
  claim_email: { slots: 'one-slot' },
  claim_idempotency_key: { slots: 'one-slot' },
  confirm_pending: {
    slots: 'one-slot',
    unreached: 'run by the outbox sweep on records left behind; test/cluster/sweeper-confirmation.test.ts runs it on a cluster',
  },
  claim_webhook_ping: { slots: 'one-slot' },
  close_report: { slots: 'one-slot' },
  create_user: { slots: 'one-slot' },
  create_webhook: { slots: 'one-slot' },
  delete_webhook: { slots: 'one-slot' },
  dropped_targets: { slots: 'one-slot' },
  end_match: { slots: 'one-slot' },
  expire_passes: { slots: 'one-slot' },
  file_report: { slots: 'one-slot' },
  fixed_window_hit: { slots: 'one-slot' },
  leave_account: { slots: 'one-slot' },
  lift_liker: { slots: 'one-slot' },
  list_match: { slots: 'one-slot' },
  mark_blocked_by: { slots: 'one-slot' },
  mark_read: { slots: 'one-slot' },
  move_thread_entries: { slots: 'one-slot', unreached: 'run by `migrate` with the service stopped; test/http/layout-migration.test.ts runs it on a cluster' },
  note_swipe: { slots: 'one-slot' },
  rank_feed: { slots: 'one-slot' },
  rate_limit: { slots: 'one-slot' },
  read_feed: { slots: 'one-slot' },
  read_feed_cards: { slots: 'one-slot' },
  read_standing: { slots: 'one-slot' },
  read_visible_account: { slots: 'one-slot' },
  replay_window: { slots: 'one-slot' },
  record_swipe: { slots: 'one-slot' },
  release_webhook_ping: { slots: 'one-slot' },
  remove_block: { slots: 'one-slot' },
  spread_into_feeds: { slots: 'one-slot' },
  take_back_swipe: { slots: 'one-slot' },
  take_socket_lease: { slots: 'one-slot' },
  track_token: { slots: 'one-slot' },
  undo_pass: { slots: 'one-slot' },
  update_profile: { slots: 'one-slot' },
  suspend_account: { slots: 'one-slot' },
  lift_suspension: { slots: 'one-slot' },
  update_webhook: { slots: 'one-slot' },
};

const LOADED = loadScripts(LUA_DIRS, SHARED_LUA_DIR);

/** Script name by the SHA1 of its source, as src/platform/redis/scripts.ts loads them. */
const scriptsBySha = () => new Map([...LOADED.values()].map((script) => [script.sha, script.name]));

type ScriptCall = { name: string; keys: string[]; slots: Set<number> };

/** Every call of a script of lua/ that Redis receives, seen through MONITOR (BullMQ's own scripts are left out). */
class ScriptCallRecorder {
  readonly calls: ScriptCall[] = [];
  private readonly seen = new Set<string>();
  private readonly bySha = scriptsBySha();

  private constructor(private readonly monitor: RedisMonitor) {
    monitor.on('monitor', (_time: string, args: string[]) => this.record(args));
  }

  static async start(url: string): Promise<ScriptCallRecorder> {
    return new ScriptCallRecorder(await RedisMonitor.open(url));
  }

  private record(shown: string[]) {
    const args = shown;
    const command = args[0]?.toLowerCase();
    if (command === 'echo') this.seen.add(args[1] ?? '');
    const bySha = command === 'evalsha' || command === 'evalsha_ro';
    if (!bySha && command !== 'eval' && command !== 'eval_ro') return;
    const body = args[1] ?? '';
    const name = this.bySha.get(bySha ? body : createHash('sha1').update(body).digest('hex'));
    if (!name) return;
    const keyList = args.slice(3, 3 + Number(args[2]));
    this.calls.push({ name, keys: keyList, slots: new Set(keyList.map((key) => keySlot(key))) });
  }

  /** Waits until MONITOR has shown everything sent before a marker sent now. */
  async drain(client: RedisClient) {
    const marker = `script-slots-${Date.now()}`;
    await client.echo(marker);
    await eventually('the MONITOR marker', () => this.seen.has(marker));
  }

  stop() {
    this.monitor.disconnect();
  }
}

/** Every way the calls seen disagree with SCRIPT_SLOTS, one line each. */
function tableMismatches(calls: readonly ScriptCall[]): string[] {
  const problems: string[] = [];
  for (const name of new Set(calls.map((call) => call.name))) {
    if (!(name in SCRIPT_SLOTS)) problems.push(`${name}: called, but not in the table`);
  }
  for (const [name, entry] of Object.entries(SCRIPT_SLOTS)) {
    const own = calls.filter((call) => call.name === name);
    const unreached = 'unreached' in entry && entry.unreached !== undefined;
    if (unreached) {
      if (own.length > 0) problems.push(`${name}: marked unreached, but the flow called it`);
      continue;
    }
    if (own.length === 0) problems.push(`${name}: in the table, but the flow never called it`);
    else if (entry.slots === 'one-slot') {
      for (const call of own.filter((c) => c.slots.size !== 1))
        problems.push(`${name}: marked one-slot, but touched ${call.slots.size} slots: ${call.keys.join(' ')}`);
    } else if (own.every((call) => call.slots.size === 1)) {
      problems.push(`${name}: marked many-slots, but touched one slot in every call: mark it one-slot`);
    }
  }
  return problems;
}

let stack: Awaited<ReturnType<typeof startStack>>;
let recorder: ScriptCallRecorder;

beforeAll(async () => {
  stack = await startStack({ WEBHOOK_ALLOW_PRIVATE: true, ADMIN_TOKEN: 'operators-only-admin-secret' });
  recorder = await ScriptCallRecorder.start(stack.redis.url!);
});

afterAll(async () => {
  recorder?.stop();
  await stack?.stop();
});

const ranked = (account: Account, pool: 'agent' | 'member' = 'agent') =>
  stack.app.redis.zscore(keys.rankedFeeds(pool, indexPartition(account.user_id)), String(account.user_id)).then((score) => score !== null);

const spreadWith = (account: Account, interests: string[]) =>
  stack.app.redis
    .hget(keys.spreadInterests('agent', indexPartition(account.user_id)), String(account.user_id))
    .then((raw) => raw === JSON.stringify(interests));

/** Drives every kind of write and read the API offers, so that every reachable script runs at least once. */
async function driveRepresentativeFlow() {
  const { api, baseUrl } = stack;
  const ok = (status: number, res: { status: number; text: string }) => expect(res.status, res.text).toBe(status);

  // A registration that crashed between reserving its e-mail and writing its account: the next one takes the e-mail over.
  await stack.app.redis.hset(keys.emails(emailBucket('stale@example.com')), 'stale@example.com', 'agent:999999:0');
  const ada = await registerAgent(api, { interests: 'chess, jazz, hiking', email: 'stale@example.com' });
  await eventually('the first feed ranked by the embedded worker', () => ranked(ada));
  const bo = await registerAgent(api, { interests: 'chess, jazz' });
  const cy = await registerAgent(api, { interests: 'jazz' });
  const member = await registerMember(api);
  await eventually('the newcomers ranked and spread', async () => (await ranked(bo)) && (await ranked(cy)) && (await ranked(member, 'member')));

  // Dropping an interest makes the next ranking job sift the holders of the dropped one.
  ok(200, await api.patch('/api/v1/me', { token: ada.token, body: { interests: 'jazz, hiking', bio: 'Changed.' } }));
  await eventually('the changed interests spread', () => spreadWith(ada, ['jazz', 'hiking']));

  ok(200, await api.get('/api/v1/discovery/feed', { token: bo.token }));
  ok(200, await api.get('/api/v1/discovery/feed', { token: member.token }));
  ok(200, await api.get('/api/v1/discovery/browse?gender=nonbinary&interests=jazz&min_age=18&city=Lisbon', { token: bo.token }));

  ok(404, await api.post('/api/v1/likes/987654321?kind=pass', { token: ada.token }));
  ok(200, await api.post(`/api/v1/likes/${cy.user_id}?kind=pass`, { token: ada.token }));
  ok(200, await api.delete(`/api/v1/likes/${cy.user_id}`, { token: ada.token }));
  ok(200, await api.post(`/api/v1/likes/${cy.user_id}?kind=pass`, { token: ada.token }));
  ok(200, await api.post(`/api/v1/likes/${ada.user_id}?kind=super_like`, { token: cy.token }));
  ok(200, await api.post(`/api/v1/likes/${bo.user_id}?kind=like`, { token: ada.token }));
  const mutual = await api.post(`/api/v1/likes/${ada.user_id}?kind=like`, { token: bo.token });
  ok(200, mutual);
  expect(mutual.body.matched).toBe(true);
  const matchId = mutual.body.match.id as number;

  const thread = `/api/v1/matches/${matchId}/messages`;
  ok(201, await api.post(thread, { token: ada.token, body: { body: 'Hello, fellow jazz fan.' } }));
  const keyed = { token: bo.token, body: { body: 'Hi!' }, headers: { 'idempotency-key': 'hello-once' } };
  ok(201, await api.post(thread, keyed));
  const hello = await api.post(thread, keyed);
  ok(201, hello);
  ok(200, await api.post(`/api/v1/matches/${matchId}/read`, { token: ada.token, body: { message_id: hello.body.id } }));
  ok(200, await api.get(thread, { token: bo.token }));
  ok(200, await api.get('/api/v1/matches', { token: ada.token }));

  const socket = await EventSocket.open(baseUrl, '/api/v1/ws?since=0', { token: ada.token });
  await socket.waitForFrame((frame) => frame.type === 'message.created');
  ok(204, await api.delete(`/api/v1/matches/${matchId}`, { token: bo.token }));
  await socket.waitForFrame((frame) => frame.type === 'match.ended');
  socket.ws.close();
  const spectator = await EventSocket.open(baseUrl, '/api/v1/spectator/stream?since=0');
  await spectator.waitForFrame((frame) => frame.type === 'match.ended');
  spectator.ws.close();

  // A block ends the pair's match (cy super-liked ada above), then is listed and lifted.
  const second = await api.post(`/api/v1/likes/${cy.user_id}?kind=like`, { token: ada.token });
  expect(second.body.matched).toBe(true);
  ok(201, await api.post(`/api/v1/blocks/${ada.user_id}`, { token: cy.token }));
  ok(200, await api.get('/api/v1/blocks', { token: cy.token }));
  ok(204, await api.delete(`/api/v1/blocks/${ada.user_id}`, { token: cy.token }));

  const hook = await api.post('/api/v1/webhooks', { token: cy.token, body: { url: 'http://127.0.0.1:9/hooks' } });
  ok(201, hook);
  ok(202, await api.post(`/api/v1/webhooks/${hook.body.id}/test`, { token: cy.token }));
  await eventually(
    'the ping done and its claim let go',
    async () => (await stack.app.redis.exists(keys.webhookPing('agent', cy.user_id, hook.body.id as string))) === 0,
  );
  ok(200, await api.patch(`/api/v1/webhooks/${hook.body.id}`, { token: cy.token, body: { enabled: false } }));
  ok(204, await api.delete(`/api/v1/webhooks/${hook.body.id}`, { token: cy.token }));

  const report = await api.post('/api/v1/reports', { token: ada.token, body: { user_id: cy.user_id, reason: 'spam' } });
  ok(201, report);
  ok(204, await api.post(`/api/v1/admin/reports/agent/${report.body.id}/close`, { token: 'operators-only-admin-secret', body: { outcome: 'dismissed' } }));

  ok(204, await api.post('/api/v1/auth/logout', { token: cy.token }));
  ok(200, await api.post(`/api/v1/admin/accounts/agent/${cy.user_id}/suspend`, { token: 'operators-only-admin-secret', body: { reason: 'spam' } }));
  ok(200, await api.post(`/api/v1/admin/accounts/agent/${cy.user_id}/lift`, { token: 'operators-only-admin-secret' }));
  ok(204, await api.post('/api/v1/auth/password', { token: ada.token, body: { current_password: ada.password, new_password: 'Another-Pass-77' } }));
  ok(204, await api.post('/api/v1/auth/logout?all=true', { token: ada.token }));
  ok(204, await api.delete('/api/v1/me', { token: bo.token, body: { password: bo.password } }));
}

describe('Lua scripts and Redis Cluster hash slots', () => {
  it('names every script of lua/ in the table', () => {
    expect(Object.keys(SCRIPT_SLOTS).sort()).toEqual([...scriptsBySha().values()].sort());
  });

  it("says in each script's header what the table says of its slots", () => {
    const headers = Object.entries(SCRIPT_SLOTS).map(([name, entry]) => {
      const line = /^ {2}Slot: .*$/m.exec(LOADED.get(name)?.lua ?? '')?.[0].trim();
      return {
        name,
        agrees: entry.slots === 'one-slot' ? /^Slot: one \(hash of .+\)$/.test(line ?? '') : /^Slot: several \(.+\): not yet cluster-ready$/.test(line ?? ''),
        line,
      };
    });
    expect(headers.filter((header) => !header.agrees)).toEqual([]);
  });

  it('touches one slot in every call of a one-slot script; the table matches what the flow calls', async () => {
    await driveRepresentativeFlow();
    await recorder.drain(stack.app.redis);

    expect(tableMismatches(recorder.calls)).toEqual([]);
  });
});
