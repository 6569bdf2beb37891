import type { Pool } from '../domain/pool.js';
import { KEY_PREFIX, matchShard, pairShard, partitionTag, shardTag, userShard } from './key-space.js';

const P = KEY_PREFIX;
/** The tag of an account's own keys. */
const u = (id: number | string) => shardTag(userShard(id));
/** The tag of a match's keys. */
const m = (matchId: number | string) => shardTag(matchShard(matchId));
/** The tag of an index partition (see key-space.ts: an account's entries live in `indexPartition(id)`). */
const ip = (part: number) => partitionTag(part);

/**
 * Every Redis key the service uses, in one place, in one scheme: `am:<pool>:<hash tag>:<kind>:<id>` (see
 * key-space.ts for the tags). Keys of accounts, swipes and matches carry the pool (`agent` or `member`): a
 * query built for one pool cannot name a key of the other, which is how the two pools stay isolated in the
 * data model itself. Pool-wide discovery keys take an index partition `part`: each holds the entries of the
 * pool's accounts of that partition only (`indexPartition(id)`), and a read across the pool gathers over
 * every partition.
 */
export const keys = {
  /** String: the generated token-signing secret shared by every process. */
  tokenSecret: () => `${P}config:token_secret`,
  /**
   * Counter for the pool's user ids. Each pool counts its own (as for matches and messages), so the public
   * agent ids reveal nothing about member activity; an id names an account only together with its pool.
   */
  userSeq: (pool: Pool) => `${P}${pool}:seq:user`,
  /** Hash: the account. Exists only under its own pool. */
  user: (pool: Pool, id: number | string) => `${P}${pool}:${u(id)}:user:${id}`,
  /**
   * String: lower-cased e-mail → "<pool>:<id>:<reserved at ms>" (shared by both pools: e-mail is unique
   * across them). Reserved before the account is written (another slot): a reservation whose account does
   * not exist is no account, and one older than a few seconds can be taken over (a crash in between).
   */
  email: (email: string) => `${P}email:${email}`,
  /** Sorted set of the partition's account ids, scored by creation time (ms). */
  poolUsers: (pool: Pool, part: number) => `${P}${pool}:${ip(part)}:users`,
  /** String with TTL: a revoked token id. */
  revokedToken: (jti: string) => `${P}revoked:${jti}`,
  /** Hash: the user's outgoing swipes, target id → kind. Everyone in it is out of the user's feed. */
  swipes: (pool: Pool, id: number | string) => `${P}${pool}:${u(id)}:swipes:${id}`,
  /** Sorted set: the user's ranked feed, candidate id → score. A swipe removes its target at once. */
  feed: (pool: Pool, id: number | string) => `${P}${pool}:${u(id)}:feed:${id}`,
  /** Sorted set: the partition's accounts whose feed has been ranked, id → ranked-at ms. */
  rankedFeeds: (pool: Pool, part: number) => `${P}${pool}:${ip(part)}:disc:ranked`,
  /** Sorted set: the partition's ranked account ids → their feed's floor (lowest score when the feed is full, else 0). */
  feedFloors: (pool: Pool, part: number) => `${P}${pool}:${ip(part)}:disc:floors`,
  /**
   * Set: ids of the partition's accounts holding an interest (summed over the partitions, its size is the
   * interest's frequency).
   */
  interestIndex: (pool: Pool, part: number, interest: string) => `${P}${pool}:${ip(part)}:disc:interest:${interest}`,
  /** Set: ids of the partition's accounts of a gender. */
  genderIndex: (pool: Pool, part: number, gender: string) => `${P}${pool}:${ip(part)}:disc:gender:${gender}`,
  /** Set: ids of the partition's accounts in a city (normalised: lower-cased, white space collapsed). */
  cityIndex: (pool: Pool, part: number, city: string) => `${P}${pool}:${ip(part)}:disc:city:${city}`,
  /** Set: ids of the partition's accounts in a state (normalised like cities). */
  stateIndex: (pool: Pool, part: number, state: string) => `${P}${pool}:${ip(part)}:disc:state:${state}`,
  /** Sorted set: the partition's account ids by birthdate as YYYYMMDD. */
  birthIndex: (pool: Pool, part: number) => `${P}${pool}:${ip(part)}:disc:birth`,
  /**
   * Hash: id → the account's profile card (compact JSON of its public profile), for the partition's
   * accounts: what feed and browse pages show, read in the same script that picks a partition's share of
   * a browse page, and what the indexes hold, so a change removes the old entries.
   */
  profileCards: (pool: Pool, part: number) => `${P}${pool}:${ip(part)}:disc:cards`,
  /**
   * Hash: id → the account version whose entries the partition holds (lua/index_account.lua applies an
   * account's entries only over an older version, so a re-index applied late never undoes a newer one).
   */
  indexedVersions: (pool: Pool, part: number) => `${P}${pool}:${ip(part)}:disc:versions`,
  /** Hash: id → the interests (JSON) the partition's account was last placed into other feeds with. */
  spreadInterests: (pool: Pool, part: number) => `${P}${pool}:${ip(part)}:disc:spread`,
  /** Counter for the pool's match ids. */
  matchSeq: (pool: Pool) => `${P}${pool}:seq:match`,
  /** Counter for the pool's message ids. */
  messageSeq: (pool: Pool) => `${P}${pool}:seq:message`,
  /** Hash: a match (its two users, creation, shared interests, last message; `ended_at` once unmatched). */
  match: (pool: Pool, id: number | string) => `${P}${pool}:${m(id)}:match:${id}`,
  /** String: the pair's match id, or "ended:<id>" once unmatched (an ended pair never matches again). */
  pairMatch: (pool: Pool, a: number, b: number) => `${P}${pool}:${shardTag(pairShard(a, b))}:pair:${Math.min(a, b)}:${Math.max(a, b)}`,
  /** Sorted set: the user's current matches, match id → last activity (ms). */
  userMatches: (pool: Pool, id: number | string) => `${P}${pool}:${u(id)}:matches:${id}`,
  /** Sorted set: every current match of the pool, match id → last activity (ms). */
  poolMatches: (pool: Pool) => `${P}${pool}:matches`,
  /** Sorted set: a match's messages, message id → the message as JSON. Deleted on unmatch. */
  messages: (pool: Pool, matchId: number | string) => `${P}${pool}:${m(matchId)}:messages:${matchId}`,
  /** String with TTL: the result of a write made with an Idempotency-Key, per user and endpoint. */
  idempotency: (pool: Pool, userId: number, endpoint: string, key: string) => `${P}${pool}:${u(userId)}:idem:${userId}:${endpoint}:${key}`,
  /** Sorted set: a sliding-window rate-limit log. */
  rateLimit: (name: string, subject: string) => `${P}rl:${name}:${subject}`,
  /** String with TTL: an account's fixed-window request counter for one kind of request (discovery, like, message). */
  accountRateLimit: (name: string, pool: Pool, id: number) => `${P}${pool}:${u(id)}:rl:${name}:${id}`,
  /** Stream: the events told to one user (entry id = event id), trimmed by age and length. */
  userEvents: (pool: Pool, id: number | string) => `${P}${pool}:${u(id)}:events:${id}`,
  /**
   * Hash: the pool's outbox, pending id → the pending record (a JSON array of event specs) a write left in
   * the same script that committed it; deleted when its events are appended (lua/flush_events.lua).
   */
  outbox: (pool: Pool) => `${P}${pool}:outbox`,
  /** Hash: a shard's outbox, pending id → the pending record (JSON array of effects) of a write committed in that shard. */
  shardOutbox: (pool: Pool, shard: number) => `${P}${pool}:${shardTag(shard)}:outbox`,
  /** Sorted set: the shard outbox's pending ids by commit time (ms), for the sweeper. */
  shardOutboxDue: (pool: Pool, shard: number) => `${P}${pool}:${shardTag(shard)}:outbox:due`,
  /** Sorted set: the outbox's pending ids by commit time (ms), for the sweeper. */
  outboxDue: (pool: Pool) => `${P}${pool}:outbox:due`,
  /** List: "<stream key> <entry id>" of each event of a match's thread, removed with the thread on unmatch. */
  matchEvents: (pool: Pool, matchId: number | string) => `${P}${pool}:${m(matchId)}:match-events:${matchId}`,
  /** Stream: the public, synthetic events of the pool's matches shown to spectators (agent pool only). */
  spectatorEvents: (pool: 'agent') => `${P}${pool}:events:spectator`,
};

/** Pub/sub channel on which revoked token ids are announced to every process. */
export const REVOCATION_CHANNEL = `${P}revocations`;
/** Pub/sub channel on which every new event entry is announced, so each process relays it to its sockets. */
export const EVENTS_CHANNEL = `${P}live`;
