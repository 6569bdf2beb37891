import type { RedisClient } from './redis.js';
import { birthdateNumber, normalizePlace, type BrowseFilters } from '../domain/browse-filters.js';
import type { ProfileSource } from '../domain/profile.js';
import type { Pool } from '../domain/pool.js';
import { ALL_PARTITIONS, INDEX_PARTITIONS, indexPartition, ROSTER_BUCKET_SPAN, rosterBucket } from './key-space.js';
import { keys, rosterPrefix } from './keys.js';
import { genderCode, rosterCode } from './roster.js';
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
 * interests_mode=all). Gender and age are read from the roster instead.
 */
export function filterGroups(pool: Pool, part: number, filters: BrowseFilters): FilterGroup[] {
  const groups: FilterGroup[] = [];
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
  /** The genders listed (any of them), when the query names some. */
  genders?: readonly string[];
  /** Entries wanted (the page size plus one). */
  want: number;
  /** Resume strictly after this account id (newest first: below it). */
  after?: { id: number };
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
  rows: Array<{ id: number; card?: ProfileSource }>;
  stop?: { id: number };
  /** How many entries the calls examined (within their budget). */
  examined: number;
};

/** The fewest accounts a partition's browse call can examine on its share of a page's budget. */
export const MIN_ACCOUNTS_PER_CALL = 4;

/**
 * The budget of one partition's browse call: an equal share of the page's (rounded up), but never less
 * than what counting the query's sets (one SCARD each) and examining MIN_ACCOUNTS_PER_CALL accounts (one
 * read, one look-up per set and one in the roster for an age or gender filter) cost. Below that floor a
 * call would examine a single account, and the merge, cut at the newest partition's stop, would move a
 * page on by about one account while every partition did work. So a page examines at most `budget`
 * entries, or INDEX_PARTITIONS times that floor for a query of many sets (35 sets and an age filter:
 * about 24 × 180 entries, each call well under a millisecond).
 */
export function browseShare(budget: number, sets: number, readsRoster: boolean): number {
  const perAccount = sets + (readsRoster ? 1 : 0);
  return Math.max(Math.ceil(budget / INDEX_PARTITIONS), perAccount + MIN_ACCOUNTS_PER_CALL * (1 + perAccount));
}

type IndexedFields = Pick<ProfileCard, 'interests' | 'gender' | 'birthdate' | 'city' | 'state'>;

/** What the indexes hold of one profile besides the account itself: the index sets it is in, and its roster bucket and code. */
export type DiscoveryEntries = { sets: string[]; roster: string; bucket: number; code: number };

/** The entries of account `id` (all in its index partition). */
export function discoveryEntries(pool: Pool, id: number, profile: IndexedFields): DiscoveryEntries {
  const indexed = indexedProfile(profile);
  const part = indexPartition(id);
  const bucket = rosterBucket(id);
  return { sets: setKeys(pool, part, indexed), roster: keys.roster(pool, part, bucket), bucket, code: rosterCode(indexed.birth, indexed.gender) };
}

/** The index sets a stored profile put its account into. */
export function setsOfAccount(pool: Pool, id: number, profile: IndexedFields): string[] {
  return setKeys(pool, indexPartition(id), indexedProfile(profile));
}

/**
 * The per-pool discovery indexes, each split into INDEX_PARTITIONS partitions by account id (an account's
 * entries all live in `indexPartition(id)`, one hash slot): one set per interest (summed over the
 * partitions, its size is the interest's frequency), per city and per state, and the roster (every
 * account's birthdate and gender, in small buckets by id), beside the accounts themselves (what the
 * indexes were built from, so a change can take its old entries out; and what pages show). Written with
 * the account, in one script (UserRepository); every read across the pool gathers over the partitions.
 * Newest first is highest id first: ids are given in order of registration.
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
        Promise.all([this.redis.hlen(keys.accounts(pool, part)), ...interests.map((interest) => this.redis.scard(keys.interestIndex(pool, part, interest)))]),
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
   * One page of accounts passing every filter, newest first (highest id first), after the cursor
   * position: lua/browse.lua runs once per partition (all its keys are the partition's), concurrently,
   * each on a share of the budget, and the rows are merged newest first. A partition that ran out of
   * budget has looked at nothing older than its stop position, so the merged page is cut there: with
   * `stop`, fewer rows than wanted (maybe none), and more may follow `stop`, the newest of the
   * partitions' stop positions. A page from the top considers the accounts registered before it began.
   */
  async browse(query: BrowseQuery): Promise<BrowseRows> {
    const sets = query.groups(0).flat().length;
    const readsRoster = query.birth !== undefined || query.genders !== undefined;
    const share = { ...query, budget: browseShare(query.budget, sets, readsRoster), driverLimit: Math.ceil(query.driverLimit / INDEX_PARTITIONS) };
    const start = await startOf(this.redis, query.pool, query.after?.id);
    const parts = await Promise.all(ALL_PARTITIONS.map((part) => browsePartition(this.scripts, part, share, start, true)));
    const { rows, stop } = mergeNewestFirst(parts);
    const page = rows.slice(0, query.want);
    const examined = parts.reduce((sum, part) => sum + part.examined, 0);
    return { rows: page, examined, ...(stop && page.length < query.want ? { stop } : {}) };
  }
}

/**
 * The pool's accounts newest first (highest id first) strictly below `below` (none: from the newest),
 * never `viewer`: each partition walks at most `perPartition` of its ids (lua/browse.lua with no filter
 * and no cards), and the merge stops where a partition may hold more (`stop`: resume strictly below it).
 */
export async function newestAccounts(redis: RedisClient, scripts: Scripts, pool: Pool, viewer: number, below: number | undefined, perPartition: number): Promise<{ ids: number[]; stop?: number }> {
  const start = await startOf(redis, pool, below);
  const query: BrowseQuery = { pool, viewerId: viewer, groups: () => [], want: perPartition, driverLimit: 0, budget: perPartition };
  const parts = await Promise.all(ALL_PARTITIONS.map((part) => browsePartition(scripts, part, query, start, false)));
  const { rows, stop } = mergeNewestFirst(parts);
  return { ids: rows.map((row) => row.id), ...(stop ? { stop: stop.id } : {}) };
}

/** Where a walk newest first starts: just below the cursor, or at the pool's newest id. */
async function startOf(redis: RedisClient, pool: Pool, below: number | undefined): Promise<number> {
  return below !== undefined ? below - 1 : Number((await redis.get(keys.userSeq(pool))) ?? 0);
}

/** Partitions' rows merged newest first, cut at the newest of their stop positions (nothing older was looked at everywhere). */
function mergeNewestFirst(parts: readonly BrowseRows[]): { rows: BrowseRows['rows']; stop?: { id: number } } {
  let stop: BrowseRows['stop'];
  for (const part of parts) if (part.stop && (!stop || part.stop.id > stop.id)) stop = part.stop;
  const merged = parts.flatMap((part) => part.rows).sort((a, b) => b.id - a.id);
  return { rows: stop ? merged.filter((row) => row.id >= stop.id) : merged, ...(stop ? { stop } : {}) };
}

/** One partition's call of lua/browse.lua from `start` (the newest id to consider). */
async function browsePartition(scripts: Scripts, part: number, query: BrowseQuery, start: number, cards: boolean): Promise<BrowseRows> {
  const { pool } = query;
  const groups = query.groups(part);
  const reply = await scripts.run<Array<string | number>>(
    'browse',
    [keys.accounts(pool, part), keys.rosterBuckets(pool, part), ...groups.flat()],
    [
      query.viewerId,
      query.want,
      start + 1,
      query.birth ? query.birth.min : '',
      query.birth ? query.birth.max : '',
      query.genders ? query.genders.map(genderCode).join(',') : '',
      groups.map((group) => group.length).join(','),
      query.driverLimit,
      query.budget,
      rosterPrefix(pool, part),
      part,
      INDEX_PARTITIONS,
      ROSTER_BUCKET_SPAN,
      cards ? '1' : '0',
    ],
  );
  const rows: BrowseRows['rows'] = [];
  for (let i = 2; i < reply.length; i += 2) {
    const id = Number(reply[i]);
    const card = reply[i + 1] as string;
    rows.push({ id, ...(card ? { card: decodeCard(id, card) } : {}) });
  }
  return { rows, examined: Number(reply[1]), ...(reply[0] ? { stop: { id: Number(reply[0]) } } : {}) };
}

/** The index sets of partition `part` an account with this profile belongs to (its gender and age are in the roster). */
function setKeys(pool: Pool, part: number, profile: IndexedProfile): string[] {
  const out = profile.interests.map((interest) => keys.interestIndex(pool, part, interest));
  if (profile.city) out.push(keys.cityIndex(pool, part, profile.city));
  if (profile.state) out.push(keys.stateIndex(pool, part, profile.state));
  return out;
}
