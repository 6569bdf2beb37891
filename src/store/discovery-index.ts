import type { RedisClient } from './redis.js';
import { birthdateNumber, normalizePlace, type BrowseFilters } from '../domain/browse-filters.js';
import type { ProfileSource } from '../domain/profile.js';
import type { Pool } from '../domain/pool.js';
import { ALL_PARTITIONS, INDEX_PARTITIONS, indexPartition } from './key-space.js';
import { keys } from './keys.js';
import { decodeCard, type ProfileCard } from './profile-cards.js';
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

/**
 * The index sets of one partition behind browse filters: one group per filter (one per interest under
 * interests_mode=all).
 */
export function filterGroups(pool: Pool, part: number, filters: BrowseFilters): FilterGroup[] {
  const groups: FilterGroup[] = [];
  if (filters.gender) groups.push(filters.gender.map((g) => keys.genderIndex(pool, part, g)));
  if (filters.interests) {
    const sets = filters.interests.map((i) => keys.interestIndex(pool, part, i));
    if (filters.interests_mode === 'all') groups.push(...sets.map((key) => [key]));
    else groups.push(sets);
  }
  if (filters.city) groups.push([keys.cityIndex(pool, part, filters.city)]);
  if (filters.state) groups.push([keys.stateIndex(pool, part, filters.state)]);
  return groups;
}

export type BrowseQuery = {
  pool: Pool;
  viewerId: number;
  /** The filter groups over the index sets of a partition (the same filters in every partition). */
  groups: (part: number) => FilterGroup[];
  birth?: { min: number; max: number };
  /** Entries wanted (the page size plus one). */
  want: number;
  after?: { ms: number; id: number };
  /** A filter holding at most this many accounts over the whole pool is read whole (each partition reads its share). */
  driverLimit: number;
  /**
   * The most entries one page examines over all partitions: each partition's call gets an equal share,
   * with a floor (see browseShare); a call that runs out answers a stop position.
   */
  budget: number;
};

/** `card` is undefined when the account has none (every account gets one when it is created): the row is skipped. */
export type BrowseRows = {
  rows: Array<{ id: number; ms: number; card?: ProfileSource }>;
  stop?: { ms: number; id: number };
  /** How many entries the calls examined (within their budget). */
  examined: number;
};

/** The fewest accounts a partition's browse call can examine on its share of a page's budget. */
export const MIN_ACCOUNTS_PER_CALL = 4;

/**
 * The budget of one partition's browse call: an equal share of the page's (rounded up), but never less
 * than what counting the query's sets (one SCARD each, one ZCOUNT for a birthdate range) and examining
 * MIN_ACCOUNTS_PER_CALL accounts (one read, one look-up per set and for the birthdate) cost. Below that
 * floor a call would examine a single account, and the merge, cut at the newest partition's stop, would
 * move a page on by about one account while every partition did work. So a page examines at most
 * `budget` entries, or INDEX_PARTITIONS times that floor for a query of many sets (35 sets and a
 * birthdate range: about 24 × 180 entries, each call well under a millisecond).
 */
export function browseShare(budget: number, sets: number, hasBirth: boolean): number {
  const perAccount = sets + (hasBirth ? 1 : 0);
  return Math.max(Math.ceil(budget / INDEX_PARTITIONS), perAccount + MIN_ACCOUNTS_PER_CALL * (1 + perAccount));
}

/** What the indexes hold of one profile besides the account itself: the index sets it belongs to and its birth score. */
export type DiscoveryEntries = { sets: string[]; birth: number };

/** The entries of account `id` (all in its index partition). */
export function discoveryEntries(pool: Pool, id: number, profile: Pick<ProfileCard, 'interests' | 'gender' | 'birthdate' | 'city' | 'state'>): DiscoveryEntries {
  const indexed = indexedProfile(profile);
  return { sets: setKeys(pool, indexPartition(id), indexed), birth: indexed.birth };
}

/** The index sets a stored profile put its account into. */
export function setsOfAccount(pool: Pool, id: number, profile: Pick<ProfileCard, 'interests' | 'gender' | 'birthdate' | 'city' | 'state'>): string[] {
  return setKeys(pool, indexPartition(id), indexedProfile(profile));
}

/** A position in newest-first order: creation ms, then id as text (the order of ZRANGE ... REV), descending. */
export type Position = { ms: number; id: number | string };

/** Negative when `a` comes first (is newer), as ZRANGE ... REV orders a sorted set scored by creation ms. */
export function newestFirst(a: Position, b: Position): number {
  if (a.ms !== b.ms) return b.ms - a.ms;
  const x = String(a.id);
  const y = String(b.id);
  return x < y ? 1 : x > y ? -1 : 0;
}

/**
 * The per-pool discovery indexes, each split into INDEX_PARTITIONS partitions by account id (an account's
 * entries all live in `indexPartition(id)`, one hash slot): one set per interest (summed over the
 * partitions, its size is the interest's frequency), per gender, per city and per state, a birthdate
 * sorted set and the pool's accounts by creation time, beside the accounts themselves (what the indexes
 * were built from, so a change can take its old entries out; and what pages show). Written with the
 * account, in one script (UserRepository); every read across the pool gathers over the partitions.
 */
export class DiscoveryIndex {
  constructor(private readonly redis: RedisClient, private readonly scripts: Scripts) {}

  /** What is indexed for the account; undefined when there is no such account. */
  async indexed(pool: Pool, id: number): Promise<IndexedProfile | undefined> {
    const card = await this.redis.hget(keys.accounts(pool, indexPartition(id)), String(id));
    return card ? indexedProfile(decodeCard(id, card)) : undefined;
  }

  /** How many accounts of the pool hold each interest, and how many accounts the pool has: summed over the partitions. */
  async holderCounts(pool: Pool, interests: readonly string[]): Promise<{ poolSize: number; counts: number[] }> {
    // One command per partition's key (they lie in different hash slots), sent together by automatic pipelining.
    const perPartition = await Promise.all(
      ALL_PARTITIONS.map((part) =>
        Promise.all([this.redis.zcard(keys.poolUsers(pool, part)), ...interests.map((interest) => this.redis.scard(keys.interestIndex(pool, part, interest)))]),
      ),
    );
    let poolSize = 0;
    const counts = interests.map(() => 0);
    for (const [size = 0, ...holders] of perPartition) {
      poolSize += size;
      holders.forEach((n, k) => (counts[k]! += n));
    }
    return { poolSize, counts };
  }

  /**
   * One page of accounts passing every filter, newest first, after the cursor position: lua/browse.lua
   * runs once per partition (all its keys are the partition's), concurrently, each on a share of the
   * budget, and the rows are merged newest first. A partition that ran out of budget has looked at
   * nothing older than its stop position, so the merged page is cut there: with `stop`, fewer rows than
   * wanted (maybe none), and more may follow `stop`, the newest of the partitions' stop positions.
   */
  async browse(query: BrowseQuery): Promise<BrowseRows> {
    const sets = query.groups(0).flat().length;
    const share = { ...query, budget: browseShare(query.budget, sets, query.birth !== undefined), driverLimit: Math.ceil(query.driverLimit / INDEX_PARTITIONS) };
    const parts = await Promise.all(ALL_PARTITIONS.map((part) => this.browsePartition(part, share)));
    let stop: BrowseRows['stop'];
    for (const part of parts) if (part.stop && (!stop || newestFirst(part.stop, stop) < 0)) stop = part.stop;
    const merged = parts.flatMap((part) => part.rows).sort(newestFirst);
    const complete = stop ? merged.filter((row) => newestFirst(row, stop) <= 0) : merged;
    const rows = complete.slice(0, query.want);
    const examined = parts.reduce((sum, part) => sum + part.examined, 0);
    return { rows, examined, ...(stop && rows.length < query.want ? { stop } : {}) };
  }

  private async browsePartition(part: number, query: BrowseQuery): Promise<BrowseRows> {
    const { pool } = query;
    const groups = query.groups(part);
    const reply = await this.scripts.run<Array<string | number>>(
      'browse',
      [keys.poolUsers(pool, part), keys.birthIndex(pool, part), keys.accounts(pool, part), ...groups.flat()],
      [
        query.viewerId,
        query.want,
        query.after ? query.after.ms : '+inf',
        query.after ? query.after.id : '',
        query.birth ? query.birth.min : '',
        query.birth ? query.birth.max : '',
        groups.map((group) => group.length).join(','),
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

/** The index sets of partition `part` an account with this profile belongs to. */
function setKeys(pool: Pool, part: number, profile: IndexedProfile): string[] {
  const out = profile.interests.map((interest) => keys.interestIndex(pool, part, interest));
  out.push(keys.genderIndex(pool, part, profile.gender));
  if (profile.city) out.push(keys.cityIndex(pool, part, profile.city));
  if (profile.state) out.push(keys.stateIndex(pool, part, profile.state));
  return out;
}
