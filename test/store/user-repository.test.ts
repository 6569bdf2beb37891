import type { RedisClient } from '../../src/platform/redis/redis.js';
import { AccountReadsRepository } from '../../src/features/accounts/account-reads-repository.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiscoveryIndexRepository, accountFiling } from '../../src/features/discovery/discovery-index-repository.js';
import { emailBucket, indexPartition } from '../../src/platform/redis/key-space.js';
import { keys } from '../../src/platform/redis/keys.js';
import { readRosterCode, rosterCode, rosterEntry } from '../../src/features/discovery/roster-repository.js';
import { decodeCard } from '../../src/features/accounts/profile-cards.js';
import type { Scripts } from '../../src/platform/redis/scripts.js';
import { EMAIL_RESERVATION_STALE_MS, updateProfile, UserRepository, type NewUser } from '../../src/features/accounts/user-repository.js';
import { startStore } from '../support/stack.js';
import { scanKeys } from '../support/scan-keys.js';

let store: Awaited<ReturnType<typeof startStore>>;
let redis: RedisClient;
let scripts: Scripts;
let users: UserRepository;
beforeAll(async () => {
  store = await startStore();
  ({ redis, scripts } = store);
  users = new UserRepository(redis, scripts, accountFiling);
});
afterAll(() => store?.cleanup());

let emails = 0;
const newUser = (overrides: Partial<NewUser> = {}): NewUser => ({
  pool: 'agent',
  email: `index-${++emails}@test.example`,
  passwordHash: 'x',
  displayName: 'Indexed',
  birthdate: '1990-05-06',
  gender: 'woman',
  bio: '',
  interests: ['kites', 'moss'],
  city: 'Lisbon',
  state: 'South',
  themeId: 1,
  ...overrides,
});

/** Everything the account's index partition holds of it: the account, its roster code, and the sets holding it. */
async function entriesOf(id: number) {
  const part = indexPartition(id);
  const member = String(id);
  const sets: string[] = [];
  for (const key of await scanKeys(redis, `${keys.interestIndex('agent', part, '*').slice(0, -'interest:*'.length)}*`)) {
    if ((await redis.type(key)) === 'set' && (await redis.sismember(key, member))) sets.push(key);
  }
  return {
    account: await redis.hget(keys.accounts('agent', part), member),
    roster: await readRosterCode(redis, 'agent', id),
    sets: sets.sort(),
  };
}

describe('an account and its discovery entries, in its index partition', () => {
  it('writes the account with every entry in one step', async () => {
    const user = (await users.create(newUser()))!;
    const entries = await entriesOf(user.id);
    expect(await users.find('agent', user.id)).toEqual(user);
    expect(entries.roster).toBe(rosterCode(19900506, 'woman'));
    const part = indexPartition(user.id);
    expect(entries.sets).toEqual(
      [
        keys.cityIndex('agent', part, 'lisbon'),
        keys.interestIndex('agent', part, 'kites'),
        keys.interestIndex('agent', part, 'moss'),
        keys.stateIndex('agent', part, 'south'),
      ].sort(),
    );
    expect(await users.find('member', user.id)).toBeUndefined();
  });

  it('moves the entries with each profile change', async () => {
    const user = (await users.create(newUser({ interests: ['kites'], city: 'Porto', state: 'North' })))!;
    await users.update('agent', user.id, { interests: ['moss'], city: 'Faro' });
    const second = (await users.update('agent', user.id, { interests: ['newts'], city: '', birthdate: '1981-02-03', gender: 'other' }))!;
    const part = indexPartition(user.id);
    const latest = await entriesOf(user.id);
    expect(latest.sets).toEqual([keys.interestIndex('agent', part, 'newts'), keys.stateIndex('agent', part, 'north')].sort());
    expect(latest.roster).toBe(rosterCode(19810203, 'other'));
    expect(second.previous.interests).toEqual(['moss']);
    expect(await users.find('agent', user.id)).toEqual(second.user);
  });

  it('writes nothing when the account changed since it was read, and the repository reads again', async () => {
    const user = (await users.create(newUser({ interests: ['oboes'] })))!;
    const part = indexPartition(user.id);
    const stored = (await redis.hget(keys.accounts('agent', part), String(user.id)))!;
    const { key: roster, offset } = rosterEntry('agent', user.id);
    const changed = await scripts.run(
      updateProfile,
      [keys.accounts('agent', part), keys.suspensions('agent', part), roster],
      [user.id, `${stored} `, stored, 1, 0, offset],
    );
    expect(changed).toBe('changed');
    expect(await readRosterCode(redis, 'agent', user.id)).toBe(rosterCode(19900506, 'woman'));
    const missing = await scripts.run(
      updateProfile,
      [keys.accounts('agent', part), keys.suspensions('agent', part), roster],
      [999_999 * 24 + part, stored, stored, 1, 0, offset],
    );
    expect(missing).toBe('missing');
    expect((await users.update('agent', user.id, { interests: ['lutes'] }))?.user.interests).toEqual(['lutes']);
  });

  it('shows its public card to discovery and keeps its e-mail and password hash out of it', async () => {
    const user = (await users.create(newUser({ email: 'private@test.example', passwordHash: 'secret-hash', bio: 'Line one\nline two', interests: ['a, b'] })))!;
    const part = indexPartition(user.id);
    const stored = (await redis.hget(keys.accounts('agent', part), String(user.id)))!;
    const { passwordHash: _hash, email: _email, pool: _pool, ...card } = user;
    expect(decodeCard(user.id, stored)).toEqual(card);
    expect((await new DiscoveryIndexRepository(redis, scripts, new AccountReadsRepository(redis, scripts)).indexed('agent', user.id))?.interests).toEqual([
      'a, b',
    ]);
    const page = await new DiscoveryIndexRepository(redis, scripts, new AccountReadsRepository(redis, scripts)).browse({
      pool: 'agent',
      viewerId: 0,
      groups: () => [],
      want: 100,
      driverLimit: 0,
      budget: 100_000,
    });
    const row = page.rows.find((r) => r.id === user.id);
    expect(row?.card).toEqual(card);
    expect(JSON.stringify(row)).not.toContain('secret-hash');
    expect(JSON.stringify(row)).not.toContain('private@test.example');
  });

  it('keeps every field as written, empty ones and tabs included, and refuses a field holding a separator', async () => {
    const user = (await users.create(
      newUser({ bio: '', city: '', state: '\tTabbed', interests: [], gender: 'nonbinary', birthdate: '1901-12-31', themeId: 6 }),
    ))!;
    expect(await users.find('agent', user.id)).toEqual(user);
    await expect(users.create(newUser({ bio: 'a\x1fb' }))).rejects.toThrow(/separator/);
  });
});

describe('an e-mail reserved before its account is written', () => {
  it('is no account while the account does not exist, and is taken over once the reservation is stale', async () => {
    const email = 'crashed@test.example';
    const orphanId = 900_000;
    // as left by a registration that crashed after reserving: no account behind it
    await redis.hset(keys.emails(emailBucket(email)), `agent:${email}`, `agent:${orphanId}:${Date.now() - EMAIL_RESERVATION_STALE_MS - 1_000}`);
    expect(await users.findByEmail('agent', email)).toBeUndefined();
    expect(await users.emailExists('agent', email)).toBe(false);

    const user = (await users.create(newUser({ email })))!;
    expect(user).toBeDefined();
    expect((await users.findByEmail('agent', email))?.id).toBe(user.id);
    expect(await redis.hget(keys.emails(emailBucket(email)), `agent:${email}`)).toBe(`agent:${user.id}`);
  });

  it('stays taken while the reservation is recent (a registration in progress), or when its account exists', async () => {
    const inProgress = 'in-progress@test.example';
    await redis.hset(keys.emails(emailBucket(inProgress)), `agent:${inProgress}`, `agent:900001:${Date.now()}`);
    expect(await users.emailExists('agent', inProgress)).toBe(false);
    expect(await users.create(newUser({ email: inProgress }))).toBeUndefined();
    expect(await redis.hget(keys.emails(emailBucket(inProgress)), `agent:${inProgress}`)).toMatch(/^agent:900001:/);

    const owned = 'owned@test.example';
    const owner = (await users.create(newUser({ email: owned })))!;
    expect(await users.create(newUser({ email: owned }))).toBeUndefined();
    expect((await users.findByEmail('agent', owned))?.id).toBe(owner.id);
  });

  it('still finds an entry of the older shared form (the bare e-mail), in the pool it names only', async () => {
    const owned = 'shared-form@test.example';
    const owner = (await users.create(newUser({ email: owned })))!;
    const index = keys.emails(emailBucket(owned));
    // as written before e-mails were a namespace per pool
    await redis.hdel(index, `agent:${owned}`);
    await redis.hset(index, owned, `agent:${owner.id}`);
    expect((await users.findByEmail('agent', owned))?.id).toBe(owner.id);
    expect(await users.findByEmail('member', owned)).toBeUndefined();
    expect(await users.create(newUser({ email: owned }))).toBeUndefined();
    expect(await users.create(newUser({ email: owned, pool: 'member' }))).toBeDefined();
  });
});
