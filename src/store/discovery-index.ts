import type { RedisClient } from './redis.js';
import { birthdateNumber, normalizePlace, type BrowseFilters } from '../domain/browse-filters.js';
import type { ProfileSource } from '../domain/profile.js';
import type { Pool } from '../domain/pool.js';
import { keys } from './keys.js';
import { decodeCard, encodeCard, type ProfileCard } from './profile-cards.js';
import type { Scripts } from './scripts.js';

/** What the discovery indexes hold of one account (city and state normalised, birthdate as YYYYMMDD). */
export type IndexedProfile = { interests: string[]; gender: string; birth: number; city: string; state: string };

/** What the indexes hold for an account with this profile. */
export function indexedProfile(user: Pick<ProfileCard, 'interests' | 'gender' | 'birthdate' | 'city' | 'state'>): IndexedProfile {
  return {
    interests: user.interests,
    gender: user.gender,
    birth: birthdateNumber(user.birthdate),
    city: normalizePlace(user.city),
    state: normalizePlace(user.state),
  };
}

/** A browse filter: the account must be in at least one of the group's index sets. */
export type FilterGroup = string[];

/** The index sets behind browse filters: one group per filter (one per interest under interests_mode=all). */
export function filterGroups(pool: Pool, filters: BrowseFilters): FilterGroup[] {
  const groups: FilterGroup[] = [];
  if (filters.gender) groups.push(filters.gender.map((g) => keys.genderIndex(pool, g)));
  if (filters.interests) {
    const sets = filters.interests.map((i) => keys.interestIndex(pool, i));
    if (filters.interests_mode === 'all') groups.push(...sets.map((key) => [key]));
    else groups.push(sets);
  }
  if (filters.city) groups.push([keys.cityIndex(pool, filters.city)]);
  if (filters.state) groups.push([keys.stateIndex(pool, filters.state)]);
  return groups;
}

export type BrowseQuery = {
  pool: Pool;
  viewerId: number;
  groups: FilterGroup[];
  birth?: { min: number; max: number };
  /** Entries wanted (the page size plus one). */
  want: number;
  after?: { ms: number; id: number };
  driverLimit: number;
  /** The most entries one call examines (see lua/browse.lua); a call that runs out answers a stop position. */
  budget: number;
};

/** `card` is undefined when the account has none (every account gets one when it is created): the row is skipped. */
export type BrowseRows = {
  rows: Array<{ id: number; ms: number; card?: ProfileSource }>;
  stop?: { ms: number; id: number };
  /** How many entries the call examined (within its budget). */
  examined: number;
};

/** What the indexes hold of one profile: its card, the index sets it belongs to and its birth score. */
export type DiscoveryEntries = { card: string; sets: string[]; birth: number };

export function discoveryEntries(pool: Pool, profile: ProfileCard): DiscoveryEntries {
  const indexed = indexedProfile(profile);
  return { card: encodeCard(profile), sets: setKeys(pool, indexed), birth: indexed.birth };
}

/** The index sets a stored card put its account into (none for no card). */
export function setsOfCard(pool: Pool, id: number, card: string): string[] {
  return card ? setKeys(pool, indexedProfile(decodeCard(id, card))) : [];
}

/**
 * The per-pool discovery indexes (written with the profile itself, see UserRepository): one set per interest (its size is the interest's frequency), per
 * gender, per city and per state, and a birthdate sorted set, plus each account's profile card (what the
 * indexes were built from, so a change can take its old entries out; and what pages show).
 */
export class DiscoveryIndex {
  constructor(private readonly redis: RedisClient, private readonly scripts: Scripts) {}

  /** What is indexed for the account; undefined when it never was. */
  async indexed(pool: Pool, id: number): Promise<IndexedProfile | undefined> {
    const card = await this.redis.hget(keys.profileCards(pool), String(id));
    return card ? indexedProfile(decodeCard(id, card)) : undefined;
  }

  /** How many accounts of the pool hold each interest, and how many accounts the pool has. */
  async holderCounts(pool: Pool, interests: readonly string[]): Promise<{ poolSize: number; counts: number[] }> {
    const [poolSize, ...counts] = await Promise.all([
      this.redis.zcard(keys.poolUsers(pool)),
      ...interests.map((interest) => this.redis.scard(keys.interestIndex(pool, interest))),
    ]);
    return { poolSize: poolSize ?? 0, counts };
  }

  /**
   * One page of accounts passing every filter, newest first, after the cursor position (see lua/browse.lua).
   * With `stop`, the budget ran out first: fewer rows than wanted (maybe none), and more may follow `stop`.
   */
  async browse(query: BrowseQuery): Promise<BrowseRows> {
    const { pool } = query;
    const reply = await this.scripts.run<Array<string | number>>(
      'browse',
      [keys.poolUsers(pool), keys.birthIndex(pool), keys.profileCards(pool), ...query.groups.flat()],
      [
        query.viewerId,
        query.want,
        query.after ? query.after.ms : '+inf',
        query.after ? query.after.id : '',
        query.birth ? query.birth.min : '',
        query.birth ? query.birth.max : '',
        query.groups.map((group) => group.length).join(','),
        query.driverLimit,
        query.budget,
      ],
    );
    const rows: BrowseRows['rows'] = [];
    for (let i = 3; i < reply.length; i += 3) {
      const id = Number(reply[i]);
      const card = reply[i + 2] as string;
      rows.push({ id, ms: Number(reply[i + 1]), ...(card ? { card: decodeCard(id, card) } : {}) });
    }
    return { rows, examined: Number(reply[2]), ...(reply[0] ? { stop: { ms: Number(reply[0]), id: Number(reply[1]) } } : {}) };
  }
}

/** The index sets an account with this profile belongs to. */
function setKeys(pool: Pool, profile: IndexedProfile): string[] {
  const out = profile.interests.map((interest) => keys.interestIndex(pool, interest));
  out.push(keys.genderIndex(pool, profile.gender));
  if (profile.city) out.push(keys.cityIndex(pool, profile.city));
  if (profile.state) out.push(keys.stateIndex(pool, profile.state));
  return out;
}
