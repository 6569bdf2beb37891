import type { RedisClient } from '../../platform/redis/redis.js';
import type { Pool } from '../../platform/core/pool.js';
import { indexPartition } from '../../platform/redis/key-space.js';
import { keys } from '../../platform/redis/keys.js';
import { replyList, replyText } from '../../platform/redis/raw-reply.js';
import { script } from '../../platform/redis/script.js';
import type { Scripts } from '../../platform/redis/scripts.js';
import { parseEpoch, type Standing } from './account-standing.js';

export type TokenRef = { jti: string; pool: Pool; userId: number };
/** A token of an account's token set: its id and expiry (s since the epoch). */
export type TrackedToken = { jti: string; exp: number };

/** lua/track_token-1.lua: the tokens taken out of the account's set over its cap (to revoke), with their expiry in ms. */
const trackToken = script('track_token', (raw) => {
  const flat = replyList(raw);
  const out: Array<{ jti: string; expMs: number }> = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push({ jti: replyText(flat[i]), expMs: Number(flat[i + 1]) });
  return out;
});

/** lua/read_standing-3.lua: whether the account exists, whether it is suspended, its credentials epoch field ('' when none). */
const readStanding = script('read_standing', (raw) => {
  const [exists, suspended, epoch] = replyList(raw);
  return { exists: exists === 1, suspended: suspended === 1, epoch: replyText(epoch) };
});

/** lua/advance_epoch-2.lua: the account's new credentials epoch, or undefined when there is no such account. */
const advanceEpoch = script('advance_epoch', (raw) => (raw === -1 ? undefined : Number(raw)));

/** The request connection comes back on its own schedule after an outage; callers wait for it a little. */
const READY_WAIT_MS = 5_000;

/** Revoked token ids, each account's set of unexpired tokens and its standing, and the shared signing secret, in Redis. */
export class TokenRepository {
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
    const evicted = await this.scripts.run(trackToken, [keys.accountTokens(pool, userId)], [token.jti, score, nowMs, cap]);
    return evicted.map(({ jti, expMs }) => ({ jti, exp: Math.floor(expMs / 1000) }));
  }

  /**
   * The standing of the token's account (read at one instant: lua/read_standing-3.lua) and whether the
   * token itself was revoked (a logout).
   */
  async standing(token: TokenRef): Promise<{ standing: Standing; revoked: boolean }> {
    const [revoked, read] = await Promise.all([this.redis.exists(keys.revokedToken(token.jti)), this.accountStanding(token.pool, token.userId)]);
    return { standing: read, revoked: revoked === 1 };
  }

  /** The account's standing, read at one instant (lua/read_standing-3.lua). */
  async accountStanding(pool: Pool, userId: number): Promise<Standing> {
    const part = indexPartition(userId);
    const { exists, suspended, epoch } = await this.scripts.run(
      readStanding,
      [keys.accounts(pool, part), keys.suspensions(pool, part), keys.epochs(pool, part)],
      [userId],
    );
    return { state: !exists ? 'gone' : suspended ? 'suspended' : 'active', ...parseEpoch(epoch) };
  }

  /**
   * Ends every token of the account issued so far but `keep` (log out everywhere: lua/advance_epoch-2.lua);
   * the account's new epoch, or undefined when there is no such account.
   */
  advanceEpoch(pool: Pool, userId: number, keep?: { jti: string; epoch: number }): Promise<number | undefined> {
    const part = indexPartition(userId);
    return this.scripts.run(advanceEpoch, [keys.accounts(pool, part), keys.epochs(pool, part)], [userId, keep?.jti ?? '', keep?.epoch ?? 0]);
  }

  /** Which of the tokens were revoked (one EXISTS each: their keys lie in many slots; sent together). */
  async revokedAmong(jtis: readonly string[]): Promise<string[]> {
    const found = await Promise.all(jtis.map((jti) => this.redis.exists(keys.revokedToken(jti))));
    return jtis.filter((_, i) => found[i] === 1);
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
