import { randomUUID } from 'node:crypto';
import { AppError } from '../core/errors.js';
import type { Pool } from '../core/pool.js';
import { keys } from '../redis/keys.js';
import { isStoreFullError } from '../redis/redis-errors.js';
import type { RedisClient } from '../redis/redis.js';
import { replyList } from '../redis/raw-reply.js';
import { script } from '../redis/script.js';
import type { Scripts } from '../redis/scripts.js';

type Account = { pool: Pool; userId: number };

/** lua/take_socket_lease-1.lua: whether the lease was taken, and how many the account holds. */
const takeSocketLease = script('take_socket_lease', (raw) => {
  const [taken, held] = replyList(raw);
  return { taken: taken === 1, held: Number(held) };
});

/** What a refused client is told to wait (one of the account's sockets may have closed by then). */
const RETRY_AFTER_SECONDS = 5;

/**
 * Open WebSockets per account across every server process: each open socket holds a lease in the
 * account's set in Redis (keys.accountSockets), taken at the upgrade in one script call, given back when
 * it closes, and renewed by this process every third of the lease while it lives; the leases of a process
 * that crashed lapse after `leaseMs`. While Redis is full a socket is let through without a lease.
 */
export class SocketLeases {
  /** This process's leases, by account ("<pool>:<id>" → lease ids), renewed together. */
  private readonly held = new Map<string, { account: Account; leases: Set<string> }>();
  private readonly processKey = randomUUID();
  private next = 0;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly redis: RedisClient,
    private readonly scripts: Scripts,
    readonly maxPerAccount: number,
    private readonly leaseMs = 60_000,
  ) {}

  start(): this {
    this.timer = setInterval(() => void this.renew(), Math.max(1, Math.floor(this.leaseMs / 3)));
    this.timer.unref();
    return this;
  }

  stop() {
    clearInterval(this.timer);
  }

  /** Takes a lease for one more socket of the account; its id, to give back at close (undefined: none was needed). Throws 429 at the cap. */
  async take(account: Account): Promise<string | undefined> {
    const lease = `${this.processKey}:${++this.next}`;
    let reply: { taken: boolean; held: number };
    try {
      reply = await this.scripts.run(takeSocketLease, [keys.accountSockets(account.pool, account.userId)], [lease, this.maxPerAccount, this.leaseMs]);
    } catch (error) {
      if (isStoreFullError(error)) return undefined;
      throw error;
    }
    if (!reply.taken) {
      throw new AppError(
        'rate_limited',
        `Too many open WebSockets for this account (at most ${this.maxPerAccount}, over every server); close one before opening another.`,
        undefined,
        { retryAfterSeconds: RETRY_AFTER_SECONDS },
        { retry_after_seconds: RETRY_AFTER_SECONDS, limit: this.maxPerAccount },
      );
    }
    const subject = `${account.pool}:${account.userId}`;
    let entry = this.held.get(subject);
    if (!entry) this.held.set(subject, (entry = { account, leases: new Set() }));
    entry.leases.add(lease);
    return lease;
  }

  /** Gives a lease back (best effort: one that could not be removed lapses on its own). */
  release(account: Account, lease: string) {
    const subject = `${account.pool}:${account.userId}`;
    const entry = this.held.get(subject);
    entry?.leases.delete(lease);
    if (entry?.leases.size === 0) this.held.delete(subject);
    this.redis.zrem(keys.accountSockets(account.pool, account.userId), lease).catch(() => undefined);
  }

  /**
   * Renews every lease this process holds: per account one ZADD XX (a lease already lapsed or given back is
   * not brought back) and the set's expiry, sent together by automatic pipelining. The end is this process's
   * clock, the lapse check Redis's: a skew of seconds against a lease of a minute changes nothing.
   */
  private async renew() {
    const until = Date.now() + this.leaseMs;
    const calls = [...this.held.values()].flatMap(({ account, leases }) => {
      const key = keys.accountSockets(account.pool, account.userId);
      return [this.redis.zadd(key, 'XX', ...[...leases].flatMap((lease) => [until, lease])), this.redis.pexpire(key, this.leaseMs)];
    });
    await Promise.all(calls.map((call) => call.catch(() => 0)));
  }
}
