import type { Pool } from '../core/pool.js';
import { ALL_SHARDS, indexPartition, KEY_PREFIX, matchShard, pairShard, partitionTag, SHARDS, shardTag, userShard } from './key-space.js';

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
/**
 * How many of an account's newest passes `keys.passes` keeps (for the undo of the last one, and so that the
 * next pass is timed after them); every pass's time is in `keys.swipes`.
 */
export const PASSES_KEPT = 8;

export const keys = {
  /** String: the key layout the stored data is in (src/platform/redis-server/key-layout-check.ts). */
  keyLayout: () => `${P}config:layout`,
  /** String: the generated token-signing secret shared by every process. */
  tokenSecret: () => `${P}config:token_secret`,
  /**
   * Counter for the pool's user ids. Each pool counts its own (as for matches and messages), so the public
   * agent ids reveal nothing about member activity; an id names an account only together with its pool.
   */
  userSeq: (pool: Pool) => `${P}${pool}:seq:user`,
  /**
   * Hash: one bucket of the e-mail index (key-space.ts: emailBucket), lower-cased e-mail → "<pool>:<id>"
   * (shared by both pools: e-mail is unique across them). Reserved before the account is written
   * (another slot) as "<pool>:<id>:<reserved at ms>": a reservation whose account does not exist is no
   * account, and one older than a few seconds can be taken over (a crash in between).
   */
  emails: (bucket: number) => `${P}${shardTag(bucket % SHARDS)}:emails:${bucket}`,
  /** String with TTL: a revoked token id. */
  revokedToken: (jti: string) => `${P}revoked:${jti}`,
  /**
   * Sorted set: the account's unexpired tokens, jti → expiry (s), at most TOKENS_MAX_PER_ACCOUNT (a login
   * beyond it revokes the oldest); expires with its last token.
   */
  accountTokens: (pool: Pool, id: number | string) => `${P}${pool}:${u(id)}:tokens:${id}`,
  /**
   * Sorted set: leases of the account's open `/api/v1/ws` sockets in every process, "<process>:<n>" → lease
   * end (ms): at most WS_MAX_PER_ACCOUNT; renewed by their process while open, removed at close, lapsing
   * on their own after a crash (src/platform/limits/socket-lease-repository.ts).
   */
  accountSockets: (pool: Pool, id: number | string) => `${P}${pool}:${u(id)}:sockets:${id}`,
  /**
   * Hash: the user's outgoing swipes, target id → kind (like, super_like) or, for a pass, its time (ms); a
   * bare `pass` is one stored before the list held passes' times (its time is in `passes`, or it has none).
   * Everyone in it is out of the user's feed. At most one field per account of the pool; a pass leaves it
   * when it expires (PASS_EXPIRY_DAYS: swept out at the account's feed reads, lua/expire_passes-4.lua) or is
   * undone.
   */
  swipes: (pool: Pool, id: number | string) => `${P}${pool}:${u(id)}:swipes:${id}`,
  /**
   * Sorted set: the user's newest passes (at most PASSES_KEPT), target id → when (ms; strictly increasing
   * per user, so the highest is the last pass, the one an undo takes back), beside `swipes`. A pass leaves
   * it when a newer one pushes it out (its time stays in `swipes`), when it expires, is undone, or is
   * replaced by a like. Stored before `swipes` held passes' times, it held every pass; the account's feed
   * reads fold those into `swipes`, a bounded step a read (lua/expire_passes-4.lua).
   */
  passes: (pool: Pool, id: number | string) => `${P}${pool}:${u(id)}:passes:${id}`,
  /**
   * String: the sweep of `swipes` for expired passes (a page per feed read, lua/expire_passes-4.lua): its
   * HSCAN cursor during a sweep, "@<ms>" between sweeps (when the next may start; "done", written by earlier
   * versions once their passes were timed, counts as "@0"). One per account that read its feed; a few
   * bytes, no lifetime.
   */
  passesTimed: (pool: Pool, id: number | string) => `${P}${pool}:${u(id)}:passes-timed:${id}`,
  /**
   * Sorted set: the accounts this account blocked, id → when (ms), at most BLOCKS_MAX_PER_ACCOUNT; lives until
   * each is unblocked (src/features/blocks). Serves the account's list of blocks and its cap.
   */
  blocks: (pool: Pool, id: number | string) => `${P}${pool}:${u(id)}:blocks:${id}`,
  /**
   * Hash: the accounts kept out of this account's feed and browse by a block either way, other id → "1" (this
   * account blocked it), "2" (it blocked this account) or "3" (both); a field leaves when neither block is
   * left. At most BLOCKS_MAX_PER_ACCOUNT fields of the first kind; the second kind is bounded by the pool's
   * size (each written by another account's block, itself capped and rate-limited).
   */
  hidden: (pool: Pool, id: number | string) => `${P}${pool}:${u(id)}:hidden:${id}`,
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
  /** Set: ids of the partition's accounts in a city (normalised: lower-cased, white space collapsed). */
  cityIndex: (pool: Pool, part: number, city: string) => `${P}${pool}:${ip(part)}:disc:city:${city}`,
  /** Set: ids of the partition's accounts in a state (normalised like cities). */
  stateIndex: (pool: Pool, part: number, state: string) => `${P}${pool}:${ip(part)}:disc:state:${state}`,
  /**
   * String: one bucket of the partition's roster (key-space.ts: ROSTER_BUCKET_IDS ids of the partition),
   * a fixed-width slot of ROSTER_CODE_BYTES per id holding the account's roster code, birthdate
   * (YYYYMMDD) × 10 + gender, or 0 where the id names no account (src/features/discovery/roster-repository.ts). Every account is
   * in it: walks of the pool newest first (highest id first) read it, and browse reads age and gender there.
   */
  roster: (pool: Pool, part: number, bucket: number) => `${rosterPrefix(pool, part)}${bucket}`,
  /** Sorted set: the partition's roster buckets that hold an account (bucket number → itself), so a walk steps over empty runs of ids. */
  rosterBuckets: (pool: Pool, part: number) => `${P}${pool}:${ip(part)}:roster`,
  /**
   * Hash: id → the account (src/features/accounts/profile-cards.ts: its profile card, then its e-mail and password
   * hash), for the partition's accounts. An account exists only under its own pool. It lives beside its
   * discovery entries, so a registration or a profile change writes the account and every index entry in
   * one script (lua/create_user-3+.lua, lua/update_profile-3+.lua); what feed and browse pages show, read in the
   * same script that picks a partition's share of a browse page; and what the indexes were built from,
   * so a change takes the old entries out.
   */
  accounts: (pool: Pool, part: number) => `${P}${pool}:${ip(part)}:accounts`,
  /**
   * Hash: the partition's accounts being erased (DELETE /api/v1/me), id → {"email", "at"} (JSON): written
   * with the account's removal (lua/leave_account-6+.lua), deleted once the rest of its erasure is done;
   * holds only erasures in progress (the sweeper finishes one a crash interrupted).
   */
  leaving: (pool: Pool, part: number) => `${P}${pool}:${ip(part)}:leaving`,
  /**
   * Hash: id → the suspension of the partition's suspended accounts (JSON: since, reason), at most one field
   * per account, kept until an operator lifts it. Beside the accounts, so a suspension and the discovery
   * entries it takes out (or a lift, puts back) are one script (lua/suspend_account-4+.lua,
   * lua/lift_suspension-4+.lua); read with a token's standing, at login, and where feeds and the spectator
   * page show accounts.
   */
  suspensions: (pool: Pool, part: number) => `${P}${pool}:${ip(part)}:suspended`,
  /**
   * Hash: id → the partition's account's credentials epoch, "<epoch>" or "<epoch> <kept jti>" (absent: 0;
   * src/features/accounts/lua/includes/next_epoch.lua). Every token carries the epoch it was issued in and
   * works only while that is still its account's: a password change, log out everywhere, a suspension and
   * a lift each move it on, in the same script as the change. One field per account, for its lifetime.
   */
  epochs: (pool: Pool, part: number) => `${P}${pool}:${ip(part)}:epochs`,
  /** Hash: id → the interests (JSON) the partition's account was last placed into other feeds with. */
  spreadInterests: (pool: Pool, part: number) => `${P}${pool}:${ip(part)}:disc:spread`,
  /**
   * Hash: what the reciprocal ranking reads of the partition's accounts, three fields each at most (an
   * account's lifetime; bounded by the partition's accounts): `p:<id>` → "mass,gender,birth" (its
   * interest mass, GENDERS index and birthdate YYYYMMDD, written by its own ranking), `t:<id>` → its taste
   * (src/features/discovery/swipe-taste.ts: 11 counts, written on each of its swipes), `a:<id>` → when it
   * was last active, ms (feed reads and swipes, at most about once a minute).
   */
  rankTraits: (pool: Pool, part: number) => `${P}${pool}:${ip(part)}:disc:traits`,
  /**
   * Sorted set: who liked (or super liked) the user and is not yet swiped by it, liker id → ms; the
   * LIKERS_KEPT newest only (src/features/discovery/lua/lift_liker-3.lua), for the ranking's liked_you lift.
   * Lives as long as the account.
   */
  likers: (pool: Pool, id: number | string) => `${P}${pool}:${u(id)}:likers:${id}`,
  /** Counter of a shard's match ids: a match id is `count * SHARDS + shard`, so the id names its shard. */
  matchSeq: (pool: Pool, shard: number) => `${P}${pool}:${shardTag(shard)}:seq:match`,
  /** Counter of a shard's message ids (`count * SHARDS + shard`, the shard of the message's match). */
  messageSeq: (pool: Pool, shard: number) => `${P}${pool}:${shardTag(shard)}:seq:message`,
  /** Hash: a match (its two users, creation, shared interests, last message; `ended_at` once unmatched). */
  match: (pool: Pool, id: number | string) => `${P}${pool}:${m(id)}:match:${id}`,
  /**
   * Hash: a pair's state, in the pair's shard: `<lower id>` and `<higher id>` → that user's latest swipe on
   * the other, and `match` → the pair's match id, or "ended:<id>" once unmatched (it never matches again);
   * `sl:<id>` once that user's super like was announced; `block:<id>` while that user blocks the other (no
   * swipe of either is recorded then, and no match is made).
   * The mutual-match decision reads and writes only this key and the new match's, in one script.
   */
  pair: (pool: Pool, a: number, b: number) => `${P}${pool}:${shardTag(pairShard(a, b))}:pair:${Math.min(a, b)}:${Math.max(a, b)}`,
  /** Sorted set: the user's current matches, match id → last activity (ms). */
  userMatches: (pool: Pool, id: number | string) => `${P}${pool}:${u(id)}:matches:${id}`,
  /**
   * Sorted set: the user's match ids ended in the last day (or REPORT_EVIDENCE_HOURS, when longer) → when
   * (ms): a late outbox step never lists one again, and the user's leaving finds the ended threads kept for
   * reports through it. Trimmed by age as it is written (lua/list_match-2.lua).
   */
  endedMatches: (pool: Pool, id: number | string) => `${P}${pool}:${u(id)}:ended:${id}`,
  /** Sorted set: the current matches of one index partition of the pool (by match id), match id → last activity (ms). */
  poolMatches: (pool: Pool, partition: number) => `${P}${pool}:${partitionTag(partition)}:matches`,
  /** Sorted set: the match ids of one index partition of the pool ended in the last day → when (ms), the guard of its match list. */
  poolEndedMatches: (pool: Pool, partition: number) => `${P}${pool}:${partitionTag(partition)}:ended-matches`,
  /**
   * Stream: a match's thread, the one copy of each message (events refer to it). Entry id
   * `<message id>-<created at, ms>`; fields `s` sender id, `b` body, `i` the shared interests it mentions
   * (JSON, '' for none), `a` and `z` the two users' sent counts at it (src/features/matches/thread-entries.ts).
   * Bounded by count and age (lua/append_message-7.lua); on unmatch, moved to `endedThread` for a bounded time
   * (deleted when an account leaves). Before key layout 3, a sorted set `messages:<id>` of message JSON.
   */
  thread: (pool: Pool, matchId: number | string) => `${P}${pool}:${m(matchId)}:thread:${matchId}`,
  /**
   * Stream: an ended match's thread (`thread`, moved here by the unmatch, lua/end_match-7.lua), read
   * only by reports naming one of its messages; expires REPORT_EVIDENCE_HOURS after the end, and is deleted
   * when either of its users leaves (found through their `endedMatches`).
   */
  endedThread: (pool: Pool, matchId: number | string) => `${P}${pool}:${m(matchId)}:ended-thread:${matchId}`,
  /**
   * Hash: a match's read state, beside its thread: per user, messages sent, the other's messages read and
   * the id read up to (lua/includes/read_state.lua in the matches feature; each thread entry keeps the two
   * users' sent counts at it). Expires with the thread; deleted on unmatch.
   */
  readState: (pool: Pool, matchId: number | string) => `${P}${pool}:${m(matchId)}:reads:${matchId}`,
  /**
   * String with TTL: the result of a write made with an Idempotency-Key, per user and endpoint, in the shard
   * of the write it guards (the pair's for a swipe, the match's for a message).
   */
  idempotency: (pool: Pool, shard: number, userId: number, endpoint: string, key: string) => `${P}${pool}:${shardTag(shard)}:idem:${userId}:${endpoint}:${key}`,
  /**
   * String with TTL: which request an Idempotency-Key of an account names for one operation (`like`, `message`),
   * as its fingerprint (target and request), in the account's shard (lua/claim_idempotency_key-1.lua).
   */
  idempotencyClaim: (pool: Pool, userId: number, operation: string, key: string) => `${P}${pool}:${u(userId)}:idem-claim:${userId}:${operation}:${key}`,
  /**
   * A client address's rate limit of one kind: a sorted set, the sliding-window log (registrations, logins,
   * WebSocket upgrades), or a string with TTL, the fixed-window counter (spectator reads).
   */
  rateLimit: (name: string, subject: string) => `${P}rl:${name}:${subject}`,
  /** String with TTL: an account's fixed-window request counter for one kind of request (discovery, like, message, profile, webhook_test). */
  accountRateLimit: (name: string, pool: Pool, id: number) => `${P}${pool}:${u(id)}:rl:${name}:${id}`,
  /** Stream: the events told to one user (entry id = event id), trimmed by age and length. */
  userEvents: (pool: Pool, id: number | string) => `${P}${pool}:${u(id)}:events:${id}`,
  /** Hash: a shard's outbox, pending id → the pending record (JSON array of effects) of a write committed in that shard. */
  shardOutbox: (pool: Pool, shard: number) => `${P}${pool}:${shardTag(shard)}:outbox`,
  /** Sorted set: the shard outbox's pending ids by commit time (ms), for the sweeper. */
  shardOutboxDue: (pool: Pool, shard: number) => `${P}${pool}:${shardTag(shard)}:outbox:due`,
  /** String with TTL: how many sweeps failed to complete one pending record (errors of the record, not of an unreachable Redis). */
  outboxFailures: (pool: Pool, shard: number, pendingId: string) => `${P}${pool}:${shardTag(shard)}:outbox:failures:${pendingId}`,
  /**
   * Hash: the dead letter of every outbox, `<pool>:<shard>:<pending id>` → JSON of a record the sweeper gave
   * up on (OUTBOX_MAX_ATTEMPTS failed sweeps): the record, its attempts, the last error, when, and the keys to
   * put it back into. Read by operators (docs/failure-behaviour.md, "Events after a crash"); nothing in the service reads it.
   */
  outboxDeadLetter: () => `${P}outbox:dead`,
  /** Set: the ids of an account's webhooks (at most WEBHOOK_MAX_PER_ACCOUNT). */
  webhooks: (pool: Pool, id: number | string) => `${P}${pool}:${u(id)}:webhooks:${id}`,
  /** Hash: one webhook of an account (url, event types, secrets, enabled, delivery cursor in the account's stream). */
  webhook: (pool: Pool, id: number | string, webhookId: string) => `${P}${pool}:${u(id)}:webhook:${id}:${webhookId}`,
  /** List: a webhook's most recent delivery attempts (JSON), newest first. */
  webhookDeliveries: (pool: Pool, id: number | string, webhookId: string) => `${P}${pool}:${u(id)}:webhook-log:${id}:${webhookId}`,
  /** String with TTL: the id of the test ping in flight to a webhook (one at a time), lasting the delivery timeout at most. */
  webhookPing: (pool: Pool, id: number | string, webhookId: string) => `${P}${pool}:${u(id)}:webhook-ping:${id}:${webhookId}`,
  /**
   * String: how many accounts of the pool discovery shows (neither suspended nor leaving), for the feed's
   * `remaining`. Moved by one after each script that puts an account into the discovery indexes or takes
   * it out (registration, suspension, lift, leaving: src/features/accounts/pool-size-repository.ts), only
   * while it exists; built from the partitions by the first read that finds it absent, and again once it
   * lapses (POOL_SIZE_REBUILD_SECONDS), so a step a crash left undone is counted again.
   */
  poolSize: (pool: Pool) => `${P}${pool}:{pool-size}:discoverable`,
  /** Hash: the pool's open reports, report id → the report as JSON (with its snapshot of the reported content). */
  reports: (pool: Pool) => `${P}${pool}:{reports}:reports`,
  /** Sorted set: the pool's open report ids by id (oldest first), at most REPORTS_MAX_OPEN (a report past it is refused). */
  openReports: (pool: Pool) => `${P}${pool}:{reports}:reports:open`,
  /**
   * Hash: the pool's open reports per reporter, reporter id → how many (at most REPORTS_MAX_OPEN_PER_REPORTER);
   * a field goes when its count reaches 0, so it holds at most one field per open report.
   */
  openReportsByReporter: (pool: Pool) => `${P}${pool}:{reports}:reports:reporters`,
  /** String: the counter of the pool's report ids. */
  reportSeq: (pool: Pool) => `${P}${pool}:{reports}:reports:seq`,
  /** Stream: the public, synthetic events of the pool's matches shown to spectators (agent pool only). */
  spectatorEvents: (pool: 'agent') => `${P}${pool}:${SPECTATOR_TAG}:events`,
  /** Hash: the spectator events of one UTC day by type (match.created → n, ...); kept two days. */
  spectatorDayTally: (day: string) => `${P}agent:${SPECTATOR_TAG}:tally:${day}`,
  /** String: the count of spectator events in one minute (ms since the epoch / 60 000); kept three minutes. */
  spectatorMinuteTally: (minute: number) => `${P}agent:${SPECTATOR_TAG}:tally-minute:${minute}`,
  /** Hash: open spectator sockets by server process, "<count>:<ms written>"; each process rewrites its own field. */
  spectatorWatchers: () => `${P}agent:${SPECTATOR_TAG}:watchers`,
};

/** The name of partition `part`'s roster buckets but the bucket number (lua/browse-2+.lua names the buckets it probes from it). */
export const rosterPrefix = (pool: Pool, part: number): string => `${P}${pool}:${ip(part)}:roster:`;

/** The keys that an append to one event stream touches, all in the stream's slot (lua/append_event-2.lua). */
export type StreamKeys = {
  stream: string;
  /** Sorted set: the outbox steps recently appended in this slot, step id → ms (each is appended once). */
  applied: string;
  /** Sharded pub/sub channel on which each new entry is announced. */
  channel: string;
};

const SPECTATOR_TAG = '{spectator}';

/** The keys of a user's own event stream. */
export function userStreamKeys(pool: Pool, id: number): StreamKeys {
  return {
    stream: keys.userEvents(pool, id),
    applied: `${P}${pool}:${u(id)}:applied`,
    channel: shardChannel(shardTag(userShard(id))),
  };
}

/** The keys of the spectator stream (agent pool only). */
export function spectatorStreamKeys(): StreamKeys {
  return {
    stream: keys.spectatorEvents('agent'),
    applied: `${P}agent:${SPECTATOR_TAG}:applied`,
    channel: shardChannel(SPECTATOR_TAG),
  };
}

const shardChannel = (tag: string) => `${P}live:${tag}`;

/** Every channel on which new event entries are announced: one per shard, and the spectator stream's. */
export const liveEventChannels = (): string[] => [...ALL_SHARDS.map((shard) => shardChannel(shardTag(shard))), shardChannel(SPECTATOR_TAG)];

/** The pool of a key of a pool (every such key is `am:<pool>:…`). */
export function poolOfKey(key: string): Pool {
  const pool = key.slice(P.length, key.indexOf(':', P.length));
  if (pool !== 'agent' && pool !== 'member') throw new Error(`no pool in key ${key}`);
  return pool;
}

/** The index partition of a match in the pool's match lists. */
export const matchPartition = (matchId: number): number => indexPartition(matchId);

/** Pub/sub channel on which revoked token ids are announced to every process. */
export const REVOCATION_CHANNEL = `${P}revocations`;

/**
 * Pub/sub channel on which every change of an account's standing is announced to every process:
 * "<pool> <id> <epoch> <state>", the account's credentials epoch after the change and its state then
 * (active, suspended or gone; the epoch orders them, so a process that hears them late or out of order keeps the newest).
 */
export const STANDING_CHANNEL = `${P}standings`;
