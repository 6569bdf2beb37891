import type { RedisClient } from '../../src/platform/redis/redis.js';
import type { Pool } from '../../src/platform/core/pool.js';
import { EventStreamRepository } from '../../src/features/events/event-stream-repository.js';
import { FrameBuilders } from '../../src/features/events/frame-builders.js';
import { registerMatchFrames } from '../../src/features/matches/match-frames.js';
import { MatchRepository } from '../../src/features/matches/match-repository.js';
import { MessageRepository } from '../../src/features/matches/message-repository.js';
import { registerSpectatorFrames } from '../../src/features/spectator/spectator-frames.js';
import { SuspensionRepository } from '../../src/features/accounts/suspension-repository.js';
import { UserRepository } from '../../src/features/accounts/user-repository.js';
import { accountFiling } from '../../src/features/discovery/discovery-index-repository.js';
import { Scripts } from '../../src/platform/redis/scripts.js';
import { keys } from '../../src/platform/redis/keys.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the payload depends on the event type; tests read the fields they check
export type StreamFrame = { id: string; type: string; at: string; data: any };

const wired = new WeakMap<RedisClient, EventStreamRepository>();

/** The streams of `redis`, read back as the server reads them (its frame builders registered as the composition registers them). */
function streamsOf(redis: RedisClient): EventStreamRepository {
  let streams = wired.get(redis);
  if (!streams) {
    const scripts = new Scripts(redis);
    const sources = {
      messages: new MessageRepository(redis, scripts),
      users: new UserRepository(redis, scripts, accountFiling),
      suspensions: new SuspensionRepository(redis, scripts, accountFiling),
      matches: new MatchRepository(redis, scripts),
    };
    const frames = registerSpectatorFrames(registerMatchFrames(new FrameBuilders(), sources), sources);
    streams = new EventStreamRepository(redis, scripts, frames);
    wired.set(redis, streams);
  }
  return streams;
}

/** Every event still in a stream, oldest first, as the frames a replaying client would get (a message's built from its thread). */
export async function streamFrames(redis: RedisClient, key: string): Promise<StreamFrame[]> {
  const events = await streamsOf(redis).bodiesAfter(key, '0-0', 1_000_000);
  return events.map(({ id, body }) => ({ id, ...JSON.parse(body) }));
}

export const userFrames = (redis: RedisClient, pool: Pool, userId: number) => streamFrames(redis, keys.userEvents(pool, userId));
export const spectatorFrames = (redis: RedisClient) => streamFrames(redis, keys.spectatorEvents('agent'));

/** The `message.created` frames of one message (user streams carry the message as data, spectators as data.message). */
export const messageFrames = (frames: StreamFrame[], messageId: number) =>
  frames.filter((f) => f.type === 'message.created' && (f.data?.id ?? f.data?.message?.id) === messageId);
