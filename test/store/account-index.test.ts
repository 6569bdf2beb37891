import type { RedisClient } from '../../src/store/redis.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountIndexFollowUp } from '../../src/services/account-index-follow-up.js';
import { AccountIndex, accountIndexedEffect, type AccountIndexedEffect } from '../../src/store/account-index.js';
import { indexPartition, userShard } from '../../src/store/key-space.js';
import { keys } from '../../src/store/keys.js';
import { OutboxRecords } from '../../src/store/outbox-records.js';
import type { Scripts } from '../../src/store/scripts.js';
import { EMAIL_RESERVATION_STALE_MS, UserRepository, type NewUser, type UserRecord } from '../../src/store/user-repository.js';
import { startStore } from '../support/stack.js';

let store: Awaited<ReturnType<typeof startStore>>;
let redis: RedisClient;
let scripts: Scripts;
let users: UserRepository;
let outbox: OutboxRecords;
let followUp: AccountIndexFollowUp;
beforeAll(async () => {
  store = await startStore();
  ({ redis, scripts } = store);
  users = new UserRepository(redis, scripts);
  outbox = new OutboxRecords(redis);
  followUp = new AccountIndexFollowUp(new AccountIndex(redis, scripts));
});
afterAll(() => store?.cleanup());

let emails = 0;
const newUser = (overrides: Partial<NewUser> = {}): NewUser => ({
  pool: 'agent', email: `index-${++emails}@test.example`, passwordHash: 'x', displayName: 'Indexed', birthdate: '1990-05-06',
  gender: 'woman', bio: '', interests: ['kites', 'moss'], city: 'Lisbon', state: 'South', themeId: 1, ...overrides,
});

/** Everything the account's index partition holds of it: its card, version, creation and birth scores, and the sets holding it. */
async function entriesOf(id: number) {
  const part = indexPartition(id);
  const member = String(id);
  const sets: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${keys.interestIndex('agent', part, '*').slice(0, -'interest:*'.length)}*`, 'COUNT', 1000);
    cursor = next;
    for (const key of found) if ((await redis.type(key)) === 'set' && (await redis.sismember(key, member))) sets.push(key);
  } while (cursor !== '0');
  return {
    card: await redis.hget(keys.profileCards('agent', part), member),
    version: await redis.hget(keys.indexedVersions('agent', part), member),
    created: await redis.zscore(keys.poolUsers('agent', part), member),
    birth: await redis.zscore(keys.birthIndex('agent', part), member),
    sets: sets.sort(),
  };
}

/** Commits an account write as lua/create_user.lua does, without its follow-up (a crash right after the commit). */
async function commitWithoutFollowUp(record: UserRecord): Promise<{ pendingId: string; effect: AccountIndexedEffect }> {
  const effect = accountIndexedEffect('agent', record.id, 0, record);
  const pendingId = `account:${record.id}:0`;
  const shard = userShard(record.id);
  const fields = ['id', String(record.id), 'pool', 'agent', 'email', record.email, 'display_name', record.displayName];
  const created = await scripts.run<number>('create_user', [keys.user('agent', record.id), keys.shardOutbox('agent', shard), keys.shardOutboxDue('agent', shard)], [pendingId, Date.now(), JSON.stringify([effect]), ...fields]);
  expect(created).toBe(1);
  return { pendingId, effect };
}

describe('an account and its index entries, in different hash slots', () => {
  it('creates the account, applies its entries in its partition right after, and completes the pending record', async () => {
    const user = (await users.create(newUser()))!;
    const shard = userShard(user.id);
    expect(await redis.hget(keys.user('agent', user.id), 'email')).toBe(user.email);
    expect(await outbox.due('agent', shard, Date.now(), 100)).toEqual([]);
    const entries = await entriesOf(user.id);
    expect(entries.version).toBe('0');
    expect(Number(entries.created)).toBe(Date.parse(user.createdAt));
    expect(entries.birth).toBe('19900506');
    const part = indexPartition(user.id);
    expect(entries.sets).toEqual([keys.cityIndex('agent', part, 'lisbon'), keys.genderIndex('agent', part, 'woman'), keys.interestIndex('agent', part, 'kites'), keys.interestIndex('agent', part, 'moss'), keys.stateIndex('agent', part, 'south')].sort());
  });

  it('leaves a pending record when the follow-up did not run; the handler applies it, applying it twice changes nothing', async () => {
    const record: UserRecord = { ...newUser(), id: await redis.incr(keys.userSeq('agent')), createdAt: new Date().toISOString() };
    const { pendingId } = await commitWithoutFollowUp(record);
    const shard = userShard(record.id);
    expect((await entriesOf(record.id)).card).toBeNull();

    const [pending] = await outbox.due('agent', shard, Date.now(), 100);
    expect(pending?.id).toBe(pendingId);
    const [effect] = JSON.parse(pending!.record) as AccountIndexedEffect[];
    expect(followUp.types).toContain(effect!.type);
    await followUp.apply('agent', effect!);
    await outbox.complete('agent', shard, pendingId);
    const once = await entriesOf(record.id);
    expect(once.card).not.toBeNull();
    expect(once.sets).toHaveLength(5);
    expect(await outbox.find('agent', shard, pendingId)).toBeNull();

    await followUp.apply('agent', effect!);
    expect(await entriesOf(record.id)).toEqual(once);
  });

  it('moves the entries with a profile change, and an older re-index applied late changes nothing', async () => {
    const user = (await users.create(newUser({ interests: ['kites'], city: 'Porto', state: 'North' })))!;
    const first = (await users.update('agent', user.id, { interests: ['moss'], city: 'Faro' }))!;
    const second = (await users.update('agent', user.id, { interests: ['newts'], city: '' }))!;
    const part = indexPartition(user.id);
    const latest = await entriesOf(user.id);
    expect(latest.version).toBe('2');
    expect(latest.sets).toEqual([keys.genderIndex('agent', part, 'woman'), keys.interestIndex('agent', part, 'newts'), keys.stateIndex('agent', part, 'north')].sort());

    // the first change's follow-up (version 1) delivered again, late: the partition holds version 2
    const late = accountIndexedEffect('agent', user.id, 1, first.user);
    await followUp.apply('agent', late);
    expect(await entriesOf(user.id)).toEqual(latest);
    expect(second.user.interests).toEqual(['newts']);
  });

  it('takes out the entries of whatever version the partition held, when a newer one lands first', async () => {
    const record: UserRecord = { ...newUser({ interests: ['oboes'] }), id: await redis.incr(keys.userSeq('agent')), createdAt: new Date().toISOString() };
    const index = new AccountIndex(redis, scripts);
    await index.apply('agent', accountIndexedEffect('agent', record.id, 0, record));
    // version 1 (oboes → lutes) never applied; version 2 (→ tubas) applied first, then version 1 late
    expect(await index.apply('agent', accountIndexedEffect('agent', record.id, 2, { ...record, interests: ['tubas'] }))).toBe(true);
    expect(await index.apply('agent', accountIndexedEffect('agent', record.id, 1, { ...record, interests: ['lutes'] }))).toBe(false);
    const part = indexPartition(record.id);
    const { sets } = await entriesOf(record.id);
    expect(sets).toContain(keys.interestIndex('agent', part, 'tubas'));
    expect(sets).not.toContain(keys.interestIndex('agent', part, 'oboes'));
    expect(sets).not.toContain(keys.interestIndex('agent', part, 'lutes'));
  });
});

describe('an e-mail reserved before its account is written', () => {
  it('is no account while the account does not exist, and is taken over once the reservation is stale', async () => {
    const email = 'crashed@test.example';
    const orphanId = 900_000;
    // as left by a registration that crashed after reserving: no account behind it
    await redis.set(keys.email(email), `agent:${orphanId}:${Date.now() - EMAIL_RESERVATION_STALE_MS - 1_000}`);
    expect(await users.findByEmail(email)).toBeUndefined();
    expect(await users.emailExists(email)).toBe(false);

    const user = (await users.create(newUser({ email })))!;
    expect(user).toBeDefined();
    expect((await users.findByEmail(email))?.id).toBe(user.id);
    expect(await redis.get(keys.email(email))).toMatch(new RegExp(`^agent:${user.id}:\\d+$`));
  });

  it('stays taken while the reservation is recent (a registration in progress), or when its account exists', async () => {
    const inProgress = 'in-progress@test.example';
    await redis.set(keys.email(inProgress), `member:900001:${Date.now()}`);
    expect(await users.emailExists(inProgress)).toBe(false);
    expect(await users.create(newUser({ email: inProgress }))).toBeUndefined();
    expect(await redis.get(keys.email(inProgress))).toMatch(/^member:900001:/);

    const owned = 'owned@test.example';
    const owner = (await users.create(newUser({ email: owned })))!;
    // an old reservation (or one written before reservations carried a time) whose account exists
    await redis.set(keys.email(owned), `agent:${owner.id}`);
    expect(await users.create(newUser({ email: owned }))).toBeUndefined();
    expect((await users.findByEmail(owned))?.id).toBe(owner.id);
  });
});
