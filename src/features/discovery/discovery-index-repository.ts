import type { RedisClient } from '../../platform/redis/redis.js';
import { birthdateNumber, normalizePlace, type BrowseFilters } from './browse-schemas.js';
import type { ProfileSource } from '../accounts/index.js';
import type { Pool } from '../../platform/core/pool.js';
import { ALL_PARTITIONS, INDEX_PARTITIONS, indexPartition, ROSTER_BUCKET_SPAN, rosterBucket, rosterSlot } from '../../platform/redis/key-space.js';
import { keys, rosterPrefix } from '../../platform/redis/keys.js';
import { codeAt, genderCode, ROSTER_CODE_BYTES, rosterCode, rosterEntry } from './roster-repository.js';
import { decodeCard, type AccountReadsRepository, type ProfileCard } from '../accounts/index.js';
import { replyList } from '../../platform/redis/raw-reply.js';
import { script } from '../../platform/redis/script.js';
import type { Scripts } from '../../platform/redis/scripts.js';

/** lua/browse-2+.lua: where to resume when the budget ended the page early, how many entries it examined, then the ids found. */
const browse = script('browse', (raw) => {
  const [stop, examined, ...ids] = replyList(raw);
  return { ...(stop ? { stopId: Number(stop) } : {}), examined: Number(examined), ids: ids.map(Number) };
});

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

/** What the indexes hold of one profile besides the account itself: the index sets it is in, and its roster slot and code. */
export type DiscoveryEntries = { sets: string[]; roster: string; bucket: number; offset: number; code: number };

/** The entries of account `id` (all in its index partition). */
export function discoveryEntries(pool: Pool, id: number, profile: IndexedFields): DiscoveryEntries {
  const indexed = indexedProfile(profile);
  const { key, bucket, offset } = rosterEntry(pool, id);
  return { sets: setKeys(pool, indexPartition(id), indexed), roster: key, bucket, offset, code: rosterCode(indexed.birth, indexed.gender) };
}

/** The index sets a stored profile put its account into. */
export function setsOfAccount(pool: Pool, id: number, profile: IndexedFields): string[] {
  return setKeys(pool, indexPartition(id), indexedProfile(profile));
}

/** How accounts are filed for discovery: given to the accounts' repository. */
export const accountFiling = { entries: discoveryEntries, sets: setsOfAccount };

/**
 * The per-pool discovery indexes, each split into INDEX_PARTITIONS partitions by account id (an account's
 * entries all live in `indexPartition(id)`, one hash slot): one set per interest (summed over the
 * partitions, its size is the interest's frequency), per city and per state, and the roster (every
 * account's birthdate and gender, in small buckets by id), beside the accounts themselves (what the
 * indexes were built from, so a change can take its old entries out; and what pages show). Written with
 * the account, in one script (UserRepository); every read across the pool gathers over the partitions.
 * Newest first is highest id first: ids are given in order of registration.
 */
export class DiscoveryIndexRepository {
  constructor(
    private readonly redis: RedisClient,
    private readonly scripts: Scripts,
    /** The accounts a block keeps from a reader, and the pool's size, read beside the index's own reads. */
    private readonly accounts: Pick<AccountReadsRepository, 'hiddenFrom' | 'discoverableCount'>,
  ) {}

  /** What is indexed for the account; undefined when there is no such account. */
  async indexed(pool: Pool, id: number): Promise<IndexedProfile | undefined> {
    const card = await this.redis.hget(keys.accounts(pool, indexPartition(id)), String(id));
    return card ? indexedProfile(decodeCard(id, card)) : undefined;
  }

  /** How many accounts of the pool discovery shows (neither suspended nor leaving): one read of the pool's count. */
  discoverableCount(pool: Pool): Promise<number> {
    return this.accounts.discoverableCount(pool);
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
   * position: lua/browse-2+.lua runs once per partition (all its keys are the partition's), concurrently,
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
    // Each partition may answer a page's worth of rows; only the merged page's cards are read.
    const parts = await Promise.all(ALL_PARTITIONS.map((part) => browsePartition(this.scripts, part, share, start)));
    const { rows, stop } = mergeNewestFirst(parts);
    const page = rows.slice(0, query.want);
    const ids = page.map((row) => row.id);
    const [cards, hidden] = await Promise.all([readCards(this.redis, query.pool, ids), this.accounts.hiddenFrom(query.pool, query.viewerId, ids)]);
    const examined = parts.reduce((sum, part) => sum + part.examined, 0);
    return {
      // An account hidden by a block keeps its row (the page's position) without its card: it is not shown.
      rows: page.map((row) => {
        const card = hidden.has(row.id) ? undefined : cards.get(row.id);
        return { id: row.id, ...(card ? { card } : {}) };
      }),
      examined,
      ...(stop && page.length < query.want ? { stop } : {}),
    };
  }
}

/**
 * The pool's accounts newest first (highest id first) strictly below `below` (none: from the newest),
 * never `viewer`, in plain reads (no script: this is the feed's rest, read often): each partition probes
 * at most `perPartition` of its ids, within one roster bucket (one HMGET), and learns the next bucket
 * below that holds an account (one ZRANGE, sent with it). A partition with ids left below its probes
 * may hold more, so the merge stops at the highest such position (`stop`: resume strictly below it).
 */
export async function newestAccounts(
  redis: RedisClient,
  pool: Pool,
  viewer: number,
  below: number | undefined,
  perPartition: number,
): Promise<{ ids: number[]; stop?: number }> {
  const start = await startOf(redis, pool, below);
  const parts = await Promise.all(
    ALL_PARTITIONS.map(async (part) => {
      const first = start - ((((start - part) % INDEX_PARTITIONS) + INDEX_PARTITIONS) % INDEX_PARTITIONS);
      if (first < 1) return { found: [], more: undefined };
      const bucket = rosterBucket(first);
      const lowest = Math.max(bucket * ROSTER_BUCKET_SPAN, 1);
      const probes: number[] = [];
      for (let id = first; id >= lowest && probes.length < perPartition; id -= INDEX_PARTITIONS) probes.push(id);
      // The probes' slots are consecutive: one range of the bucket holds them all.
      const from = rosterSlot(probes[probes.length - 1]!);
      const [bytes, next] = await Promise.all([
        redis.getrangeBuffer(keys.roster(pool, part, bucket), from * ROSTER_CODE_BYTES, (rosterSlot(first) + 1) * ROSTER_CODE_BYTES - 1),
        redis.zrange(keys.rosterBuckets(pool, part), bucket - 1, '-inf', 'BYSCORE', 'REV', 'LIMIT', 0, 1),
      ]);
      const codes = probes.map((id) => codeAt(bytes, from, rosterSlot(id)));
      const found = probes.filter((id, i) => codes[i]! > 0 && id !== viewer);
      const last = probes[probes.length - 1]!;
      // Every id of the partition at or above `more` has been probed, and some below it may be accounts.
      let more: number | undefined;
      if (last - INDEX_PARTITIONS >= lowest) more = last;
      else if (next.length > 0) more = bucketTop(Number(next[0]), part) + 1;
      return { found, more };
    }),
  );
  let stop: number | undefined;
  for (const part of parts) if (part.more !== undefined && (stop === undefined || part.more > stop)) stop = part.more;
  const ids = parts
    .flatMap((part) => part.found)
    .filter((id) => stop === undefined || id >= stop)
    .sort((a, b) => b - a);
  return { ids, ...(stop !== undefined ? { stop } : {}) };
}

/** The highest id of partition `part` in roster bucket `bucket`. */
function bucketTop(bucket: number, part: number): number {
  const top = (bucket + 1) * ROSTER_BUCKET_SPAN - 1;
  return top - ((((top - part) % INDEX_PARTITIONS) + INDEX_PARTITIONS) % INDEX_PARTITIONS);
}

/** The cards of accounts `ids` of `pool` (one HMGET per partition, sent together): id → card, for those that exist. */
async function readCards(redis: RedisClient, pool: Pool, ids: readonly number[]): Promise<Map<number, ProfileSource>> {
  const byPartition = new Map<number, number[]>();
  for (const id of ids) byPartition.set(indexPartition(id), [...(byPartition.get(indexPartition(id)) ?? []), id]);
  const out = new Map<number, ProfileSource>();
  await Promise.all(
    [...byPartition].map(async ([part, members]) => {
      const stored = await redis.hmget(keys.accounts(pool, part), ...members.map(String));
      members.forEach((id, i) => {
        const account = stored[i];
        if (account) out.set(id, decodeCard(id, account));
      });
    }),
  );
  return out;
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

/** One partition's call of lua/browse-2+.lua from `start` (the newest id to consider): ids alone, no cards. */
async function browsePartition(scripts: Scripts, part: number, query: BrowseQuery, start: number): Promise<BrowseRows> {
  const { pool } = query;
  const groups = query.groups(part);
  const reply = await scripts.run(
    browse,
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
      ROSTER_CODE_BYTES,
    ],
  );
  return { rows: reply.ids.map((id) => ({ id })), examined: reply.examined, ...(reply.stopId !== undefined ? { stop: { id: reply.stopId } } : {}) };
}

/** The index sets of partition `part` an account with this profile belongs to (its gender and age are in the roster). */
function setKeys(pool: Pool, part: number, profile: IndexedProfile): string[] {
  const out = profile.interests.map((interest) => keys.interestIndex(pool, part, interest));
  if (profile.city) out.push(keys.cityIndex(pool, part, profile.city));
  if (profile.state) out.push(keys.stateIndex(pool, part, profile.state));
  return out;
}
