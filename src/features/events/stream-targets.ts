import type { Pool } from '../../platform/core/pool.js';
import { spectatorStreamKeys, userStreamKeys } from '../../platform/redis/keys.js';
import { SPECTATOR_TOPIC, userTopic } from './event-topics.js';
import type { StreamAppend } from './event-stream-repository.js';

/** Length caps: memory guards far above a day's traffic, so the 24 h of replay holds in practice. */
export const USER_STREAM_MAX_LENGTH = 10_000;
export const SPECTATOR_STREAM_MAX_LENGTH = 100_000;

/** Where an entry goes: its stream's keys, the topic it is announced to, the stream's cap, and whose stream it is. */
export type StreamTarget = Pick<StreamAppend, 'target' | 'route' | 'maxLength' | 'account'>;

/** An account's own stream. */
export const userStream = (pool: Pool, userId: number): StreamTarget => ({
  target: userStreamKeys(pool, userId),
  route: userTopic(pool, userId),
  maxLength: USER_STREAM_MAX_LENGTH,
  account: userId,
});

/** The spectators' stream (agents only). */
export const spectatorStream = (): StreamTarget => ({ target: spectatorStreamKeys(), route: SPECTATOR_TOPIC, maxLength: SPECTATOR_STREAM_MAX_LENGTH });
