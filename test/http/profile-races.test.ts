import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { birthdateNumber, normalizePlace } from '../../src/features/discovery/browse-schemas.js';
import { normalizeInterests } from '../../src/features/accounts/interest-schemas.js';
import { keys } from '../../src/platform/redis/keys.js';
import { indexPartition } from '../../src/platform/redis/key-space.js';
import { readRosterCode, rosterCode } from '../../src/features/discovery/roster-repository.js';
import { decodeCard } from '../../src/features/accounts/profile-cards.js';
import { registerAgent } from '../support/accounts.js';
import { startStack } from '../support/stack.js';
import { scanKeys } from '../support/scan-keys.js';

let stack: Awaited<ReturnType<typeof startStack>>;
beforeAll(async () => {
  // 120 patches of one account within seconds: its profile-change limit is raised out of the way.
  stack = await startStack({ PROFILE_RATE_LIMIT: 100_000 });
});
afterAll(() => stack?.stop());

type Patch = Record<string, unknown>;
const GENDERS = ['man', 'woman', 'nonbinary', 'other'];

/** Two patches of one account sent at once: each pair changes different fields. */
const pairs: Array<(round: number) => [Patch, Patch]> = [
  (r) => [{ interests: `topic-${r}-a, topic-${r}-b, shared` }, { bio: `Bio of round ${r}.` }],
  (r) => [{ city: `City ${r}`, state: `State ${r % 3}` }, { interests: [`only-${r}`] }],
  (r) => [{ gender: GENDERS[r % 4] }, { bio: `Another bio ${r}` }],
  (r) => [{ birthdate: `19${50 + (r % 40)}-0${1 + (r % 9)}-1${r % 10}` }, { interests: `dated-${r}` }],
  (r) => [
    { city: r % 2 ? '' : `Ville ${r}`, gender: GENDERS[(r + 1) % 4] },
    { interests: '', bio: `No interests ${r}` },
  ],
  (r) => [{ display_name: `Renamed ${r}`, state: `Région ${r}` }, { city: `ÉVORA ${r}` }],
];

/** The index sets (by key) of the pool that hold the account. */
async function setsHolding(id: number): Promise<string[]> {
  const redis = stack.app.redis;
  const out: string[] = [];
  const part = indexPartition(id);
  for (const pattern of [keys.interestIndex('agent', part, '*'), keys.cityIndex('agent', part, '*'), keys.stateIndex('agent', part, '*')]) {
    for (const key of await scanKeys(redis, pattern)) if (await redis.sismember(key, String(id))) out.push(key);
  }
  return out.sort();
}

/** Checks that the stored profile, its card and every index agree, and that both patches were applied. */
async function expectConsistent(id: number, token: string, applied: Patch) {
  const redis = stack.app.redis;
  const me = (await stack.api.get('/api/v1/me', { token })).body;
  for (const [field, value] of Object.entries(applied)) {
    if (field === 'interests') expect(me.interests).toEqual(normalizeInterests(value as string | string[]));
    else expect(me[field], field).toBe(value);
  }
  const card = decodeCard(id, (await redis.hget(keys.accounts('agent', indexPartition(id)), String(id)))!);
  expect({ ...card, id }).toMatchObject({
    id,
    displayName: me.display_name,
    birthdate: me.birthdate,
    gender: me.gender,
    bio: me.bio,
    interests: me.interests,
    city: me.city,
    state: me.state,
  });
  const part = indexPartition(id);
  const expected = [
    ...me.interests.map((interest: string) => keys.interestIndex('agent', part, interest)),
    ...(me.city ? [keys.cityIndex('agent', part, normalizePlace(me.city))] : []),
    ...(me.state ? [keys.stateIndex('agent', part, normalizePlace(me.state))] : []),
  ].sort();
  expect(await setsHolding(id)).toEqual(expected);
  expect(await readRosterCode(redis, 'agent', id)).toBe(rosterCode(birthdateNumber(me.birthdate), me.gender));
}

describe('concurrent PATCH /me on one account', () => {
  it('leaves the profile, its card and every discovery index agreeing, whatever the interleaving', async () => {
    const account = await registerAgent(stack.api);
    for (let round = 0; round < 60; round++) {
      const [a, b] = pairs[round % pairs.length]!(round);
      const responses = await Promise.all([a, b].map((body) => stack.api.patch('/api/v1/me', { token: account.token, body })));
      for (const res of responses) expect(res.status, res.text).toBe(200);
      await expectConsistent(account.user_id, account.token, { ...a, ...b });
    }
  }, 30_000);

  it('applies every one of many concurrent patches of different fields, and the indexes follow the merged result', async () => {
    const account = await registerAgent(stack.api);
    const patches: Patch[] = [
      { interests: 'many-a, many-b' },
      { bio: 'Many at once.' },
      { city: 'Braga' },
      { state: 'Minho' },
      { gender: 'other' },
      { birthdate: '1977-07-07' },
      { display_name: 'Crowded' },
      { theme_id: 5 },
    ];
    const responses = await Promise.all(patches.map((body) => stack.api.patch('/api/v1/me', { token: account.token, body })));
    for (const res of responses) expect(res.status, res.text).toBe(200);
    await expectConsistent(account.user_id, account.token, Object.assign({}, ...patches));
  });
});
