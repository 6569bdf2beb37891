import type { RedisClient } from '../../platform/redis/redis.js';
import type { Pool } from '../../platform/core/pool.js';
import { emailBucket, indexPartition } from '../../platform/redis/key-space.js';
import { keys } from '../../platform/redis/keys.js';
import { script } from '../../platform/redis/script.js';
import type { Scripts } from '../../platform/redis/scripts.js';
import { adjustPoolSize } from './pool-size-repository.js';
import { claimEmail, decodeApplied, emailField, onStoredAccount, parseOwner, type AccountFiling, type UserRecord } from './user-repository.js';
import { fromStored } from './user-record.js';

/** An account whose erasure has begun: its profile is gone; its e-mail is kept until the rest is erased. */
export type LeavingAccount = { pool: Pool; id: number; email: string; at: number };

const leaveAccount = script('leave_account', decodeApplied);

/** Markers read per call when the sweeper looks for erasures left unfinished. */
const SCAN_COUNT = 100;

/**
 * The account's own part of its erasure: the first step (lua/leave_account-6+.lua: marked leaving, its
 * profile and discovery entries gone, in one script), the e-mail given back at the end, and the markers
 * of erasures in progress, by which the sweeper finds one that a crash interrupted.
 */
export class LeavingRepository {
  constructor(
    private readonly redis: RedisClient,
    private readonly scripts: Scripts,
    private readonly filing: AccountFiling,
  ) {}

  /** Begins the erasure of `user` (as read, its password checked): false when it is gone already. */
  async begin(user: UserRecord, now = Date.now()): Promise<boolean> {
    const { pool, id } = user;
    const part = indexPartition(id);
    const accounts = keys.accounts(pool, part);
    const marker = JSON.stringify({ email: user.email, at: now });
    const left = await onStoredAccount(this.redis, pool, id, async (stored) => {
      const { sets, roster, offset } = this.filing.entries(pool, id, fromStored(pool, id, stored));
      const keyList = [
        accounts,
        roster,
        keys.rankedFeeds(pool, part),
        keys.feedFloors(pool, part),
        keys.spreadInterests(pool, part),
        keys.leaving(pool, part),
        ...sets,
      ];
      const applied = await this.scripts.runAcknowledged(leaveAccount, keyList, [id, stored, marker, offset]);
      return applied === 'changed' ? applied : applied === 'applied';
    });
    if (left) await adjustPoolSize(this.scripts, pool, -1);
    return left ?? false;
  }

  /** The e-mail is free again: its entry in the pool's namespace (or of the older shared form) goes, when it still names this account. */
  async releaseEmail(account: LeavingAccount): Promise<void> {
    const index = keys.emails(emailBucket(account.email));
    for (const field of [emailField(account.pool, account.email), account.email]) {
      const held = await this.redis.hget(index, field);
      if (!held) continue;
      const owner = parseOwner(held);
      if (owner.pool === account.pool && Number(owner.id) === account.id) await this.scripts.run(claimEmail, [index], [field, held, '']);
    }
  }

  /** The erasure is done: its credentials epoch goes, then its marker (and with it the e-mail it kept). */
  async finish(account: LeavingAccount): Promise<void> {
    const part = indexPartition(account.id);
    await this.redis.hdel(keys.epochs(account.pool, part), String(account.id));
    await this.redis.hdel(keys.leaving(account.pool, part), String(account.id));
  }

  /** The marker of an account being erased; undefined when none. */
  async marker(pool: Pool, id: number): Promise<LeavingAccount | undefined> {
    const value = await this.redis.hget(keys.leaving(pool, indexPartition(id)), String(id));
    return value ? parseMarker(pool, id, value) : undefined;
  }

  /** Erasures in progress in one partition begun before `beforeMs`, a page at a time (HSCAN). */
  async *begunBefore(pool: Pool, part: number, beforeMs: number): AsyncGenerator<LeavingAccount> {
    let cursor = '0';
    do {
      const [next, flat] = await this.redis.hscan(keys.leaving(pool, part), cursor, 'COUNT', SCAN_COUNT);
      cursor = next;
      for (let i = 0; i + 1 < flat.length; i += 2) {
        const account = parseMarker(pool, Number(flat[i]), flat[i + 1]!);
        if (account && account.at < beforeMs) yield account;
      }
    } while (cursor !== '0');
  }
}

function parseMarker(pool: Pool, id: number, value: string): LeavingAccount | undefined {
  try {
    const { email, at } = JSON.parse(value) as { email?: unknown; at?: unknown };
    return typeof email === 'string' && typeof at === 'number' ? { pool, id, email, at } : undefined;
  } catch {
    return undefined;
  }
}
