import type { RedisClient } from '../../platform/redis/redis.js';
import type { Pool } from '../../platform/core/pool.js';
import { indexPartition } from '../../platform/redis/key-space.js';
import { keys } from '../../platform/redis/keys.js';

/** What Redis says about a token: whether it was revoked and whether its account still exists. */
export type TokenStanding = { revoked: boolean; accountExists: boolean };
export type TokenRef = { jti: string; pool: Pool; userId: number };

/** The request connection comes back on its own schedule after an outage; callers wait for it a little. */
const READY_WAIT_MS = 5_000;

/** Revoked token ids and the shared signing secret, in Redis. */
export class TokenStore {
  constructor(private readonly redis: RedisClient) {}

  async standing(token: TokenRef): Promise<TokenStanding> {
    const [revoked, exists] = await Promise.all([this.redis.exists(keys.revokedToken(token.jti)), this.redis.hexists(keys.accounts(token.pool, indexPartition(token.userId)), String(token.userId))]);
    return { revoked: revoked === 1, accountExists: exists === 1 };
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
