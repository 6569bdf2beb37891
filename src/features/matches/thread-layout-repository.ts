import type { Pool } from '../../platform/core/pool.js';
import { KEY_PREFIX } from '../../platform/redis/key-space.js';
import { keys } from '../../platform/redis/keys.js';
import { masterNodes } from '../../platform/redis/master-nodes.js';
import type { RedisClient } from '../../platform/redis/redis.js';
import { replyIsOne } from '../../platform/redis/raw-reply.js';
import { scanNode } from '../../platform/redis/scan-keys.js';
import { script } from '../../platform/redis/script.js';
import type { Scripts } from '../../platform/redis/scripts.js';
import type { Message } from './match.js';
import { entryFields, entryId } from './thread-entries.js';

/** How many messages one step of the move takes (each step is one script call of about a millisecond). */
const MESSAGES_PER_STEP = 200;

/** One step of the move (lua/move_thread_entries-4.lua): whether the thread is moved whole. */
const moveThreadEntries = script('move_thread_entries', replyIsOne);

/** What the move to key layout 3 found and moved. */
export type ThreadMove = { threads: number; messages: number };

/**
 * The move of threads to key layout 3 (lua/move_thread_entries-4.lua): each match's thread, and each ended
 * thread kept for reports, from a sorted set of message JSON to a stream of entries, a bounded step at a
 * time. Meant to run while no service writes (the service refuses layout 2); run again, it takes up where
 * a stopped run left off.
 */
export class ThreadLayoutRepository {
  constructor(
    private readonly redis: RedisClient,
    private readonly scripts: Scripts,
  ) {}

  async moveAll(onThread?: (key: string) => void): Promise<ThreadMove> {
    const moved: ThreadMove = { threads: 0, messages: 0 };
    for (const node of masterNodes(this.redis)) {
      for (const key of await sortedSetThreads(node)) {
        moved.messages += await this.moveThread(key);
        moved.threads += 1;
        onThread?.(key);
      }
    }
    return moved;
  }

  /** Moves one thread whole, step by step; how many messages it held. */
  private async moveThread(key: string): Promise<number> {
    const named = parseThreadKey(key);
    if (!named) return 0;
    const { pool, matchId, ended } = named;
    const final = ended ? keys.endedThread(pool, matchId) : keys.thread(pool, matchId);
    const reads = keys.readState(pool, matchId);
    let count = 0;
    for (;;) {
      const members = await this.redis.zrange(key, '0', String(MESSAGES_PER_STEP - 1));
      const messages = members.map((member) => JSON.parse(member) as Message);
      const marks = messages.length > 0 ? await this.redis.hmget(reads, ...messages.map((message) => `m:${message.id}`)) : [];
      const args = messages.flatMap((message, i) => {
        const [a, z] = (marks[i] ?? '0:0').split(':');
        return [members[i]!, message.id, entryId(message.id, Date.parse(message.created_at)), ...entryFields(message), 'a', a ?? '0', 'z', z ?? '0'];
      });
      const done = await this.scripts.run(moveThreadEntries, [key, `${final}:moving`, final, reads], [messages.length, ...args]);
      count += messages.length;
      if (done) return count;
    }
  }
}

/** The keys of every thread still kept as a sorted set on one node (layout 2). */
async function sortedSetThreads(node: RedisClient): Promise<string[]> {
  const found: string[] = [];
  for (const pattern of [`${KEY_PREFIX}*:messages:*`, `${KEY_PREFIX}*:ended-thread:*`]) found.push(...(await scanNode(node, pattern, 'zset')));
  return found;
}

const THREAD_KEY = new RegExp(`^${KEY_PREFIX}(agent|member):\\{[^}]+\\}:(messages|ended-thread):(\\d+)$`);

/** The pool and match of a layout-2 thread key, `am:<pool>:{tag}:messages:<id>` or `…:ended-thread:<id>`. */
function parseThreadKey(key: string): { pool: Pool; matchId: number; ended: boolean } | undefined {
  const found = THREAD_KEY.exec(key);
  if (!found) return undefined;
  return { pool: found[1] as Pool, matchId: Number(found[3]), ended: found[2] === 'ended-thread' };
}
