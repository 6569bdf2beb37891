import type { RedisClient } from '../../platform/redis/redis.js';
import type { Pool } from '../../platform/core/pool.js';
import { indexPartition } from '../../platform/redis/key-space.js';
import { keys } from '../../platform/redis/keys.js';
import type { Scripts } from '../../platform/redis/scripts.js';

/** What Redis says about a token: whether it was revoked, whether its account still exists, and whether it is suspended. */
export type TokenStanding = { revoked: boolean; accountExists: boolean; suspended: boolean };
export type TokenRef = { jti: string; pool: Pool; userId: number };
/** A token of an account's token set: its id and expiry (s since the epoch). */
export type TrackedToken = { jti: string; exp: number };

/** The request connection comes back on its own schedule after an outage; callers wait for it a little. */
const READY_WAIT_MS = 5_000;

/** Revoked token ids, each account's set of unexpired tokens, and the shared signing secret, in Redis. */
export class TokenStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly scripts: Scripts,
  ) {}

  /**
   * Files a newly issued token in its account's set (lua/track_token-1.lua); answers the oldest tokens
   * taken out because the set held more than `cap`, for the caller to revoke.
   */
  async track(pool: Pool, userId: number, token: TrackedToken, cap: number, nowMs = Date.now()): Promise<TrackedToken[]> {
    // Scored by expiry in ms (the second of `exp`, the millisecond of issue), so the oldest of one second goes first.
    const score = token.exp * 1000 + (nowMs % 1000);
    const evicted = await this.scripts.run('track_token', [keys.accountTokens(pool, userId)], [token.jti, score, nowMs, cap]);
    return evicted.map(({ jti, expMs }) => ({ jti, exp: Math.floor(expMs / 1000) }));
  }

  /** The account's unexpired tokens (at most the cap). */
  async tracked(pool: Pool, userId: number): Promise<TrackedToken[]> {
    const flat = await this.redis.zrangebyscore(keys.accountTokens(pool, userId), `(${Date.now()}`, '+inf', 'WITHSCORES');
    const out: TrackedToken[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) out.push({ jti: flat[i]!, exp: Math.floor(Number(flat[i + 1]) / 1000) });
    return out;
  }

  /** Takes revoked tokens out of the account's set (after they were revoked, so a crash in between only leaves them to be revoked again). */
  async untrack(pool: Pool, userId: number, jtis: readonly string[]): Promise<void> {
    if (jtis.length > 0) await this.redis.zrem(keys.accountTokens(pool, userId), ...jtis);
  }

  async standing(token: TokenRef): Promise<TokenStanding> {
    const part = indexPartition(token.userId);
    const [revoked, exists, suspended] = await Promise.all([
      this.redis.exists(keys.revokedToken(token.jti)),
      this.redis.hexists(keys.accounts(token.pool, part), String(token.userId)),
      this.redis.hexists(keys.suspensions(token.pool, part), String(token.userId)),
    ]);
    return { revoked: revoked === 1, accountExists: exists === 1, suspended: suspended === 1 };
  }

  /**
   * The standing of each token; throws if any look-up failed. The keys lie in many hash slots, so each is a
   * command of its own (sent together by automatic pipelining, grouped per node on a cluster).
   */
  standings(tokens: readonly TokenRef[]): Promise<TokenStanding[]> {
    return Promise.all(tokens.map((token) => this.standing(token)));
  }

  /** Marks the token revoked until it would have expired anyway. */
  async revoke(jti: string, ttlSeconds: number): Promise<void> {
    await this.redis.set(keys.revokedToken(jti), '1', 'EX', ttlSeconds);
  }

  /** Resolves once the connection is ready, or after a short wait if it is not back by then. */
  async ready(): Promise<void> {
    if (this.redis.status === 'ready') return;
    const { redis } = this;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        redis.off('ready', done);
        resolve();
      };
      const timer = setTimeout(done, READY_WAIT_MS);
      redis.once('ready', done);
    });
  }

  /** The signing secret every process shares: the first candidate stored wins. */
  async sharedSecret(candidate: string): Promise<string> {
    await this.redis.set(keys.tokenSecret(), candidate, 'NX');
    return (await this.redis.get(keys.tokenSecret())) ?? candidate;
  }
}
