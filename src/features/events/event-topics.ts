import type { Pool } from '../../platform/core/pool.js';

/** The uWS topic of one user's sockets (every socket of that user, in every process, follows it). */
export const userTopic = (pool: Pool, userId: number) => `user/${pool}/${userId}`;

/** The uWS topic of every spectator socket. */
export const SPECTATOR_TOPIC = 'spectator';
