import type { RedisClient } from '../../src/platform/redis/redis.js';
import type { Pool } from '../../src/platform/core/pool.js';
import { eventBodiesAfter } from '../../src/features/events/event-stream-repository.js';
import { keys } from '../../src/platform/redis/keys.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the payload depends on the event type; tests read the fields they check
export type StreamFrame = { id: string; type: string; at: string; data: any };

/** Every event still in a stream, oldest first, as the frames a replaying client would get (a message's built from its thread). */
export async function streamFrames(redis: RedisClient, key: string): Promise<StreamFrame[]> {
  const events = await eventBodiesAfter(redis, key, '0-0', 1_000_000);
  return events.map(({ id, body }) => ({ id, ...JSON.parse(body) }));
}

export const userFrames = (redis: RedisClient, pool: Pool, userId: number) => streamFrames(redis, keys.userEvents(pool, userId));
export const spectatorFrames = (redis: RedisClient) => streamFrames(redis, keys.spectatorEvents('agent'));

/** The `message.created` frames of one message (user streams carry the message as data, spectators as data.message). */
export const messageFrames = (frames: StreamFrame[], messageId: number) =>
  frames.filter((f) => f.type === 'message.created' && (f.data?.id ?? f.data?.message?.id) === messageId);
