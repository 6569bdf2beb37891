/**
 * The wait before reconnecting to a Redis node that dropped, by attempt (0, 1, …): doubling from 50 ms, at
 * most 1 s. Every connection of the service uses it (ioredis' retry strategies and the hot connections), so
 * they all come back together once Redis is back.
 */
export const reconnectDelay = (attempt: number): number => Math.min(50 * 2 ** attempt, 1_000);
