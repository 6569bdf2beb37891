import { masterNodes } from '../redis/master-nodes.js';
import type { RedisClient } from '../redis/redis.js';

/**
 * How many integer members a set keeps in Redis's compact form (an intset: 4 bytes a member instead of
 * about 50 in a hash table). The discovery index sets hold account ids; 4,096 keeps every set of an index
 * partition compact up to about 100,000 accounts a pool (bench/discovery-scale.ts) and the commonest
 * interests' sets beyond. An intset is searched by halving and written by moving at most 16 KiB, and
 * lua/dropped_targets-2+.lua pages one by value (SSCAN answers it whole), so no call grows with it.
 */
export const INDEX_SET_INTSET_ENTRIES = 4_096;

/**
 * The most bytes one node of a stream holds (threads and event streams are streams). Redis allocates a new
 * node at this size up to 4 KiB, its default, and trims it to fit only once full: with 4 KiB, a thread of one
 * message or an account's first event costs 4.3 KB. At 1 KiB it costs 1.2 KB, and a long thread pays
 * ≈ 45 B over each body for its nodes (bench/message-memory.ts); smaller nodes cost more per entry again.
 */
export const STREAM_NODE_MAX_BYTES = 1_024;

/** What a redis-server the service starts itself is given (the embedded default, the tests' and bench's servers). */
export const REDIS_SERVER_SETTINGS: readonly string[] = [
  '--set-max-intset-entries',
  String(INDEX_SET_INTSET_ENTRIES),
  '--stream-node-max-bytes',
  String(STREAM_NODE_MAX_BYTES),
];

/** A setting the data is laid out for, and whether a Redis's value of it serves. */
type LaidOutFor = { name: string; wanted: number; serves: (value: number) => boolean; costs: string };

const LAID_OUT_FOR: readonly LaidOutFor[] = [
  {
    name: 'set-max-intset-entries',
    wanted: INDEX_SET_INTSET_ENTRIES,
    serves: (value) => value >= INDEX_SET_INTSET_ENTRIES,
    costs: 'the discovery index sets take more memory',
  },
  {
    name: 'stream-node-max-bytes',
    wanted: STREAM_NODE_MAX_BYTES,
    serves: (value) => value > 0 && value <= STREAM_NODE_MAX_BYTES,
    costs: 'each thread and event stream holds up to 4 KB it does not use',
  },
];

/**
 * A one-line advice when the Redis (each master, on a cluster) keeps its sets or streams in another form
 * than the data is laid out for: everything works, at more memory per agent. Undefined when every
 * setting serves, or when CONFIG cannot be read (a managed Redis may forbid it).
 */
export async function memorySettingsAdvice(redis: RedisClient): Promise<string | undefined> {
  const values = await Promise.all(masterNodes(redis).map((node) => readSettings(node, LAID_OUT_FOR)));
  const off = LAID_OUT_FOR.filter((setting, i) => values.some((read) => read[i] !== undefined && !setting.serves(read[i])));
  if (off.length === 0) return undefined;
  const found = (setting: LaidOutFor) =>
    values.map((read) => read[LAID_OUT_FOR.indexOf(setting)]).find((value) => value !== undefined && !setting.serves(value));
  return `Redis is not set as the data is laid out for (${off.map((setting) => `${setting.name} is ${found(setting)}`).join(', ')}); for the memory per agent of docs/scaling.md run ${off.map((setting) => `CONFIG SET ${setting.name} ${setting.wanted}`).join(' and ')}, and put the same in redis.conf: until then ${off.map((setting) => setting.costs).join(', and ')}.`;
}

/** A node's values of the settings, in order; undefined where it cannot be read. */
async function readSettings(node: RedisClient, settings: readonly LaidOutFor[]): Promise<Array<number | undefined>> {
  return Promise.all(
    settings.map(async ({ name }) => {
      try {
        const reply = await node.config('GET', name);
        return reply[1] === undefined ? undefined : Number(reply[1]);
      } catch {
        return undefined;
      }
    }),
  );
}
