import keySlot from 'cluster-key-slot';

/**
 * How the service's keys are spread over Redis Cluster hash slots. Every key starts with KEY_PREFIX, so the
 * service can share a database. Keys that one script touches together carry the same hash tag (the part in
 * `{}`, which alone decides a key's slot), and the tags come from two small fixed families:
 *
 * - shards (SHARDS of them): an account's own keys (swipes, feed, matches, events, counters) live in the
 *   shard of its id; a pair's swipes and match state, the match, its thread and its message counter in the
 *   shard of the pair (a match id says its shard: `id % SHARDS`); each shard has its own outbox of pending
 *   outbox steps.
 * - index partitions (INDEX_PARTITIONS of them): the accounts themselves beside the pool-wide discovery
 *   indexes, and the match lists, split by account id (or match id), so no slot holds a whole pool.
 *
 * The tags of each family are picked so that their slots are evenly spaced over 0..16383: any cluster whose
 * masters own equal runs of slots (what `redis-cli --cluster create` and rebalance make) gets an equal share
 * of each family. Both counts are part of the data's layout and fixed for its life.
 */
export const KEY_PREFIX = 'am:';
export const SHARDS = 256;
export const INDEX_PARTITIONS = 24;

const SLOTS = 16384;

/** For each k < count, the first tag `<family><k>.<n>` whose slot lies in the k-th of `count` equal runs. */
function spacedTags(family: string, count: number): string[] {
  return Array.from({ length: count }, (_, k) => {
    const low = Math.floor((k * SLOTS) / count);
    const high = Math.floor(((k + 1) * SLOTS) / count);
    for (let n = 0; ; n++) {
      const tag = `${family}${k}.${n}`;
      const slot = keySlot(tag);
      if (slot >= low && slot < high) return `{${tag}}`;
    }
  });
}

const SHARD_TAGS = spacedTags('s', SHARDS);
const PARTITION_TAGS = spacedTags('i', INDEX_PARTITIONS);

/** The shard of an account's own keys. */
export const userShard = (userId: number | string): number => Number(userId) % SHARDS;

/** The shard of a pair's keys (its swipes, its match state, the match and its thread), the same whichever way round. */
export function pairShard(a: number, b: number): number {
  return ((Math.min(a, b) % SHARDS) * 31 + Math.max(a, b)) % SHARDS;
}

/**
 * How many buckets the e-mail index is split into (EMAIL_BUCKETS / SHARDS per shard): few enough to cost
 * little in a small pool, many enough that each stays a compact listpack (Redis's default
 * `hash-max-listpack-entries` is 512) up to about two million accounts.
 */
export const EMAIL_BUCKETS = 4_096;

/** The e-mail index bucket of an e-mail (FNV-1a of its text), so e-mails spread evenly; it lies in shard `bucket % SHARDS`. */
export function emailBucket(email: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(email, 'utf8')) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash % EMAIL_BUCKETS;
}

/** The shard of a match's keys, which its id carries. */
export const matchShard = (matchId: number | string): number => Number(matchId) % SHARDS;

/** The index partition an account (or, for match lists, a match) is listed in. */
export const indexPartition = (id: number | string): number => Number(id) % INDEX_PARTITIONS;

/**
 * How many ids of one index partition a roster bucket holds, one fixed-width slot each (keys.roster):
 * ids of a partition follow one another in its buckets.
 */
export const ROSTER_BUCKET_IDS = 1_024;
/** The ids a roster bucket spans: bucket `b` of a partition holds its ids in [b × span, (b + 1) × span). */
export const ROSTER_BUCKET_SPAN = ROSTER_BUCKET_IDS * INDEX_PARTITIONS;
/** The roster bucket of an account (within its index partition). */
export const rosterBucket = (id: number | string): number => Math.floor(Number(id) / ROSTER_BUCKET_SPAN);
/** The slot of an account in its roster bucket. */
export const rosterSlot = (id: number | string): number => Math.floor((Number(id) % ROSTER_BUCKET_SPAN) / INDEX_PARTITIONS);

export const shardTag = (shard: number): string => SHARD_TAGS[shard]!;
export const partitionTag = (partition: number): string => PARTITION_TAGS[partition]!;

/** Every index partition, for gathering across them. */
export const ALL_PARTITIONS: readonly number[] = Array.from({ length: INDEX_PARTITIONS }, (_, k) => k);
/** Every shard, for sweeping their outboxes. */
export const ALL_SHARDS: readonly number[] = Array.from({ length: SHARDS }, (_, k) => k);
