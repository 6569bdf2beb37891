import type { RedisClient } from '../../platform/redis/redis.js';
import { interestMass, LIKED_YOU_BONUS, RANK_CANDIDATES, RANK_MIN_SAMPLE, SCORE_SCALE } from './discovery-scoring.js';
import { decodeTraits, RankTraitsRepository, type Traits } from './rank-traits-repository.js';
import { ReciprocalScorer } from './reciprocal-scorer.js';
import type { FeedPosition } from '../../platform/core/page-positions.js';
import type { ProfileSource } from '../accounts/index.js';
import { bestFirst, gatherCandidates, inSteps, type Candidates } from './feed-candidates-repository.js';
import { newestAccounts } from './discovery-index-repository.js';
import { accountsInRosterBucket } from './roster-repository.js';
import { ALL_PARTITIONS, INDEX_PARTITIONS, indexPartition, userShard } from '../../platform/redis/key-space.js';
import type { Pool } from '../../platform/core/pool.js';
import { keys, PASSES_KEPT } from '../../platform/redis/keys.js';
import { decodeCard } from '../accounts/index.js';
import { script } from '../../platform/redis/script.js';
import type { Scripts } from '../../platform/redis/scripts.js';
import { DAY_MS } from '../../platform/core/dates.js';
import {
  decodeDroppedTargets,
  decodeExpirePasses,
  decodeRankFeed,
  decodeReadFeed,
  decodeReadFeedCards,
  decodeSpreadIntoFeeds,
  type FeedReply,
  type SpreadEntry,
  type StoredFeedCard,
} from './feed-replies.js';

const readFeed = script('read_feed', decodeReadFeed);
const readFeedCards = script('read_feed_cards', decodeReadFeedCards);
const rankFeed = script('rank_feed', decodeRankFeed);
const droppedTargets = script('dropped_targets', decodeDroppedTargets);
const spreadIntoFeeds = script('spread_into_feeds', decodeSpreadIntoFeeds);
export const expirePasses = script('expire_passes', decodeExpirePasses);

export type { FeedPosition, FeedReply, SpreadEntry };
/** A page's rows (positions: an account without a card keeps its row and is not shown), and which of them liked the viewer. */
export type FeedRows = { rankedSize: number; rows: FeedPosition[]; likedBy: Set<number>; stop?: FeedPosition };
/** What a feed entry shows of an account: its public card and its ranking traits. */
export type FeedCard = { card: ProfileSource; traits: Traits };

/**
 * The most entries one Redis call of a ranking job examines (members read, memberships, scores or swipes
 * looked up): about a millisecond of Redis time. A job's work is split into calls of at most this much.
 */
export const RANK_STEP = 2_000;
/**
 * How many candidates a ranking considers at most (see RANK_CANDIDATES), and `step`, the most entries
 * one of its Redis calls examines (default RANK_STEP).
 */
export type RankBounds = { candidates: number; minSample: number; step?: number };
const DEFAULT_BOUNDS: RankBounds = { candidates: RANK_CANDIDATES, minSample: RANK_MIN_SAMPLE, step: RANK_STEP };
/** The most passes one feed read expires (a few hundred µs of Redis time at most). */
const PASS_EXPIRY_STEP = 200;
/** An account's swipe list is swept for expired passes at most once an hour (a page of it a feed read). */
const PASS_SWEEP_EVERY_MS = 3_600_000;
/** The liked-you lift in stored units, which the feed scripts add from the owner's likers. */
const LIFT = LIKED_YOU_BONUS * SCORE_SCALE;
/** The ranked list handed to lua/rank_feed-4.lua holds this many more than the feed size, in case of a swipe meanwhile. */
const SPARES = 20;
/** What a ranking did: how many candidates it scored, and the feeds the account should enter or move in. */
export type Ranking = { candidates: number; targets: SpreadEntry[] };

/**
 * Ranked feeds: each account's best candidates as a small sorted set, each ranked feed's floor (for
 * spreading others into it), and the record of which feeds have been ranked.
 */
export class FeedRepository {
  /** The reciprocal ranking's per-account signals (traits, tastes, activity, likers). */
  readonly traits: RankTraitsRepository;
  private readonly scorer: ReciprocalScorer;

  constructor(
    private readonly redis: RedisClient,
    private readonly scripts: Scripts,
  ) {
    this.traits = new RankTraitsRepository(redis, scripts);
    this.scorer = new ReciprocalScorer(this.traits);
  }

  /**
   * Replaces the account's feed with the best `size` of a bounded set of candidates sharing an interest
   * (and its newest likers), by reciprocal score (reciprocal-scorer.ts), and with `spreading` also names
   * the feeds it should enter or move in: the candidates whose feed was ranked (they have a floor) and
   * either has room (floor 0) or a lowest score the account's own score there beats. Records the
   * account's profile traits (`profile`: its gender index and birthdate YYYYMMDD) for others' rankings.
   * Every Redis call examines at most `bounds.step` entries (src/features/discovery/feed-candidates-repository.ts,
   * lua/rank_feed-4.lua). `interests` and `weights` go together.
   */
  async rank(
    pool: Pool,
    id: number,
    interests: readonly string[],
    weights: readonly number[],
    size: number,
    spreading: boolean,
    bounds: RankBounds = DEFAULT_BOUNDS,
    profile?: { gender: number; birth: number },
  ): Promise<Ranking> {
    const step = bounds.step ?? RANK_STEP;
    const sets = interests.map((interest, i) => ({ weight: weights[i] ?? 0, parts: ALL_PARTITIONS.map((part) => keys.interestIndex(pool, part, interest)) }));
    const mass = interestMass(weights);
    const likersRead = this.traits.likers(pool, id);
    // Awaited below; a failure meanwhile must not also surface as an unhandled rejection.
    likersRead.catch(() => undefined);
    // The traits of the candidates (and likers) are read with the candidates' last look-ups, in one round trip.
    let traitsRead: Promise<Map<string, Traits>> | undefined;
    const shared = await gatherCandidates(this.redis, sets, { ...bounds, step }, indexPartition, async (members) => {
      traitsRead = likersRead.then((likers) => this.scorer.traitsFor(pool, id, members, likers, step));
      await Promise.all([traitsRead, profile ? this.traits.writeProfile(pool, id, mass, profile.gender, profile.birth) : undefined]);
    });
    const [likersNow, known] = await Promise.all([likersRead, traitsRead]);
    const { feed: score, spread, likers } = await this.scorer.score(pool, id, { mass, ...profile }, shared, step, likersNow, spreading, known);
    // The feeds to enter are looked up meanwhile: they depend on the scores alone (the account is never its own target).
    const targets = spreading ? this.spreadTargets(pool, id, spread, step) : Promise.resolve([]);
    targets.catch(() => undefined);
    const picks = await this.unswiped(pool, id, bestFirst(score), size + SPARES, step);
    // The script adds the liked-you lift itself, from the likers as they are then (lua/rank_feed-4.lua).
    const args: Array<string | number> = [id, size, LIFT];
    for (const member of picks) args.push(member, score.get(member)! - (likers.has(member) ? LIFT : 0));
    const { floor } = await this.scripts.run(rankFeed, [keys.feed(pool, id), keys.swipes(pool, id), keys.likers(pool, id), keys.hidden(pool, id)], args);
    // Derived entries in the account's index partition (another slot): see lua/rank_feed-4.lua.
    const part = indexPartition(id);
    await Promise.all([this.redis.zadd(keys.feedFloors(pool, part), floor, String(id)), this.redis.zadd(keys.rankedFeeds(pool, part), Date.now(), String(id))]);
    return { candidates: score.size, targets: await targets };
  }

  /** The first `count` of `ordered` that are neither the account, nor swiped by it, nor hidden from it by a block, looked up a step at a time. */
  private async unswiped(pool: Pool, id: number, ordered: readonly string[], count: number, step: number): Promise<string[]> {
    const self = String(id);
    const chunk = Math.max(1, Math.min(step, count * 2));
    const out: string[] = [];
    for (let i = 0; i < ordered.length && out.length < count; i += chunk) {
      const slice = ordered.slice(i, i + chunk);
      const [swiped, hidden] = await Promise.all([this.redis.hmget(keys.swipes(pool, id), ...slice), this.redis.hmget(keys.hidden(pool, id), ...slice)]);
      slice.forEach((member, j) => {
        if (member !== self && swiped[j] === null && hidden[j] === null && out.length < count) out.push(member);
      });
    }
    return out;
  }

  /** The candidates whose ranked feed has room or a floor the account's score there beats, looked up a step at a time. */
  private async spreadTargets(pool: Pool, id: number, score: Candidates, step: number): Promise<SpreadEntry[]> {
    const self = String(id);
    // The partitions are looked up side by side (each a step at a time), their targets kept in partition order.
    const groups = [...byPartition([...score.keys()])];
    const found = groups.map((): SpreadEntry[][] => []);
    await Promise.all(
      groups.map(([part, members], g) =>
        inSteps(members, step, async (owners) => {
          const floors = await this.redis.zmscore(keys.feedFloors(pool, part), ...owners);
          const targets: SpreadEntry[] = [];
          owners.forEach((owner, i) => {
            const floor = floors[i];
            const mine = score.get(owner)!;
            if (floor !== null && floor !== undefined && owner !== self && mine > Number(floor)) targets.push({ owner: Number(owner), score: mine });
          });
          found[g]!.push(targets);
        }),
      ),
    );
    return found.flat(2);
  }

  /** The account's reciprocal scores in the feeds of `owners`, from their shared-interest sums. */
  async spreadScores(pool: Pool, id: number, mass: number, shared: Candidates, step = RANK_STEP): Promise<Candidates> {
    return (await this.scorer.score(pool, id, { mass }, shared, step)).spread;
  }

  /**
   * From one page (about `count` members, from `cursor`) of partition `part`'s part of an interest set
   * the account no longer holds, the owners whose feed the account must leave or move in, scored by its
   * current `interests` and `weights` (lua/dropped_targets-2+.lua). Page on until the returned cursor is
   * "0", in every partition.
   */
  async droppedTargets(
    pool: Pool,
    id: number,
    dropped: string,
    interests: readonly string[],
    weights: readonly number[],
    part: number,
    cursor: string,
    count: number,
  ): Promise<{ cursor: string; targets: SpreadEntry[] }> {
    return this.scripts.run(
      droppedTargets,
      [keys.interestIndex(pool, part, dropped), keys.feedFloors(pool, part), ...interests.map((i) => keys.interestIndex(pool, part, i))],
      [id, cursor, count, ...weights],
    );
  }

  /**
   * Places the candidate into (score > 0) or out of (score 0) each ranked owner's feed: the owners'
   * floors are read first from their partitions (an owner without one was never ranked and is left
   * alone), then lua/spread_into_feeds-4+.lua once per owners' shard (per `perCall` owners of a shard, so
   * no call grows with the number of feeds), the calls sent together, then the floors they answer are
   * recorded in the owners' partitions. Returns how many feeds changed.
   */
  async spread(pool: Pool, candidate: number, entries: readonly SpreadEntry[], size: number, perCall = Infinity): Promise<number> {
    const ranked = new Set<number>();
    const groups = byPartition(entries.map((entry) => String(entry.owner)));
    // (one ZMSCORE per partition holding owners: a step's worth of owners at most per call when the caller chunks)
    const replies = await Promise.all([...groups].map(([part, owners]) => this.redis.zmscore(keys.feedFloors(pool, part), ...owners)));
    [...groups.values()].forEach((owners, g) => {
      owners.forEach((owner, i) => {
        if (replies[g]![i] != null) ranked.add(Number(owner));
      });
    });
    const byShard = new Map<number, SpreadEntry[]>();
    for (const entry of entries) {
      if (!ranked.has(entry.owner)) continue;
      const shard = userShard(entry.owner);
      byShard.set(shard, [...(byShard.get(shard) ?? []), entry]);
    }
    const calls: SpreadEntry[][] = [];
    const most = Math.max(1, perCall);
    for (const owners of byShard.values()) for (let i = 0; i < owners.length; i += most) calls.push(owners.slice(i, i + most));
    // One call per shard, sent together (each on its own slot); then the floors they answer, in one pipeline.
    const answers = await Promise.all(
      calls.map((shardEntries) => {
        const keyList: string[] = [];
        const args: Array<string | number> = [candidate, size, LIFT];
        for (const { owner, score } of shardEntries) {
          keyList.push(keys.feed(pool, owner), keys.swipes(pool, owner), keys.likers(pool, owner), keys.hidden(pool, owner));
          args.push(owner, score);
        }
        return this.scripts.run(spreadIntoFeeds, keyList, args);
      }),
    );
    let changed = 0;
    const writes: Array<Promise<unknown>> = [];
    for (const answer of answers) {
      changed += answer.changed;
      for (const { owner, score } of answer.floors) writes.push(this.redis.zadd(keys.feedFloors(pool, indexPartition(owner)), score, String(owner)));
    }
    await Promise.all(writes);
    return changed;
  }

  /**
   * Expires the account's passes made at or before `cutoffMs` (at most `step` of them, the oldest first:
   * the rest go at the next reads) and counts the swipes still standing and the accounts a block keeps
   * from it (lua/expire_passes-4.lua): the passes its passes still hold, then those of its swipe list, a page
   * of it a read, in a sweep at most every PASS_SWEEP_EVERY_MS. Passes stored before passes had a time are
   * timed on the way, as made a day before `nowMs`.
   */
  settlePasses(pool: Pool, id: number, nowMs: number, cutoffMs: number, step = PASS_EXPIRY_STEP): Promise<{ expired: number; swiped: number; hidden: number }> {
    return this.scripts.runHot(
      expirePasses,
      [keys.swipes(pool, id), keys.passes(pool, id), keys.passesTimed(pool, id), keys.hidden(pool, id)],
      [cutoffMs, step, nowMs - DAY_MS, nowMs, PASS_SWEEP_EVERY_MS, PASSES_KEPT],
    );
  }

  /** How many swipes of the account stand (its swipe list's size) and how many accounts a block keeps from it. */
  async swipeCount(pool: Pool, id: number): Promise<{ swiped: number; hidden: number }> {
    const [swiped, hidden] = await Promise.all([this.redis.hlen(keys.swipes(pool, id)), this.redis.hlen(keys.hidden(pool, id))]);
    return { swiped, hidden };
  }

  /** The interests the account was last spread with (empty when never). */
  async spreadInterests(pool: Pool, id: number): Promise<string[]> {
    const raw = await this.redis.hget(keys.spreadInterests(pool, indexPartition(id)), String(id));
    return raw ? (JSON.parse(raw) as string[]) : [];
  }

  async setSpreadInterests(pool: Pool, id: number, interests: readonly string[]): Promise<void> {
    await this.redis.hset(keys.spreadInterests(pool, indexPartition(id)), String(id), JSON.stringify(interests));
  }

  /**
   * Ids of the pool's accounts whose feed was never ranked: each partition's roster a bucket at a time,
   * looked up in the partition's ranked marks (both of one slot), so every call stays small.
   */
  async unranked(pool: Pool): Promise<number[]> {
    const out: number[] = [];
    for (const part of ALL_PARTITIONS) {
      for (const bucket of await this.redis.zrange(keys.rosterBuckets(pool, part), '0', '-1')) {
        const ids = accountsInRosterBucket(await this.redis.getBuffer(keys.roster(pool, part, Number(bucket))), part, Number(bucket)).map(String);
        if (ids.length === 0) continue;
        const ranked = await this.redis.zmscore(keys.rankedFeeds(pool, part), ...ids);
        ids.forEach((member, i) => {
          if (ranked[i] == null) out.push(Number(member));
        });
      }
    }
    return out;
  }

  /**
   * Up to `want` feed entries strictly after `after`: `firstRead`, then `rest` when the ranked part left
   * the page short.
   */
  async read(pool: Pool, id: number, want: number, after: FeedPosition | undefined, scanLimit: number): Promise<FeedRows> {
    return this.rest(pool, id, want, after, scanLimit, await this.firstRead(pool, id, want, after));
  }

  /**
   * The page's ranked part, in one call on the viewer's shard (lua/read_feed-4.lua): never the viewer, an
   * account it swiped, or one a block keeps from it; with which of the entries liked the viewer.
   */
  firstRead(pool: Pool, id: number, want: number, after: FeedPosition | undefined): Promise<FeedReply> {
    return this.page(pool, id, want, after, []);
  }

  /**
   * When `first` does not fill the page, the rest of the pool newest first is gathered across the
   * partitions (each probes at most its share of `scanLimit` ids after the position, and the merge is cut
   * where a partition may hold more, see newestAccounts), and the page is read again whole with those
   * candidates, so the ranked part and the rest's exclusions come from one instant (an account spread
   * into the ranked part meanwhile is in one of them).
   */
  async rest(pool: Pool, id: number, want: number, after: FeedPosition | undefined, scanLimit: number, first: FeedReply): Promise<FeedRows> {
    let reply = first;
    let stop: FeedPosition | undefined;
    if (reply.positions.length < want) {
      const share = Math.max(1, Math.ceil(scanLimit / INDEX_PARTITIONS));
      const newest = await newestAccounts(this.redis, pool, id, after?.part === 't' ? after.id : undefined, share);
      if (newest.ids.length > 0) reply = await this.page(pool, id, want, after, newest.ids);
      // Short, with partitions holding more below: the page ends where the walk may resume.
      if (reply.positions.length < want && newest.stop !== undefined) stop = { part: 't', score: 0, id: newest.stop };
    }
    return { rankedSize: reply.rankedSize, rows: reply.positions, likedBy: new Set(reply.likedBy), ...(stop ? { stop } : {}) };
  }

  private page(pool: Pool, id: number, want: number, after: FeedPosition | undefined, candidates: readonly number[]): Promise<FeedReply> {
    return this.scripts.runHot(
      readFeed,
      [keys.feed(pool, id), keys.swipes(pool, id), keys.hidden(pool, id), keys.likers(pool, id)],
      [id, want, after?.part ?? '', after?.score ?? '', after?.id ?? '', ...candidates],
    );
  }

  /** The reader's own card and traits, and when its feed was last ranked: one call on its partition. */
  async reader(pool: Pool, id: number): Promise<{ rankedAt?: number; reader?: FeedCard }> {
    const part = indexPartition(id);
    this.traits.readingSoon();
    const { rankedAt, cards } = await this.scripts.runHot(readFeedCards, feedCardKeys(pool, part), [id, id]);
    const reader = shownCard(id, cards[0]);
    return { ...(rankedAt !== undefined ? { rankedAt } : {}), ...(reader ? { reader } : {}) };
  }

  /**
   * The cards and traits of a page's `ids`, one call per partition they lie in (lua/read_feed_cards-4.lua),
   * sent together: id → card, for those that have one and are not suspended (others' ranked feeds may
   * still hold a suspended account).
   */
  async cards(pool: Pool, ids: readonly number[]): Promise<Map<number, FeedCard>> {
    const groups = [...byPartition(ids.map(String))];
    this.traits.readingSoon();
    const replies = await Promise.all(groups.map(([part, members]) => this.scripts.runHot(readFeedCards, feedCardKeys(pool, part), ['', ...members])));
    const out = new Map<number, FeedCard>();
    groups.forEach(([, members], g) => {
      members.forEach((member, i) => {
        const card = shownCard(Number(member), replies[g]!.cards[i]);
        if (card) out.set(Number(member), card);
      });
    });
    return out;
  }
}

const feedCardKeys = (pool: Pool, part: number) => [
  keys.accounts(pool, part),
  keys.suspensions(pool, part),
  keys.rankTraits(pool, part),
  keys.rankedFeeds(pool, part),
];

function shownCard(id: number, stored: StoredFeedCard | undefined): FeedCard | undefined {
  if (!stored?.card) return undefined;
  return { card: decodeCard(id, stored.card), traits: decodeTraits(stored.profile, stored.taste, stored.active) };
}

/** Ids grouped by their index partition. */
function byPartition(ids: readonly string[]): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const id of ids) {
    const part = indexPartition(id);
    const list = out.get(part);
    if (list) list.push(id);
    else out.set(part, [id]);
  }
  return out;
}
