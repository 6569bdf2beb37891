import type { Pool } from '../../platform/core/pool.js';
import { indexPartition } from '../../platform/redis/key-space.js';
import { keys } from '../../platform/redis/keys.js';
import type { RedisClient } from '../../platform/redis/redis.js';
import { replyList } from '../../platform/redis/raw-reply.js';
import { script } from '../../platform/redis/script.js';
import type { Scripts } from '../../platform/redis/scripts.js';
import { decodeCard } from './profile-cards.js';
import { adjustPoolSize } from './pool-size-repository.js';
import { onStoredAccount, type AccountFiling } from './user-repository.js';

/** An account's suspension as stored: when it began and the operator's reason (null when none was given). */
export type Suspension = { since: string; reason: string | null };

/**
 * lua/suspend_account-4+.lua and lua/lift_suspension-4+.lua: 1 done, 2 nothing to do, 0 the account changed
 * meanwhile, -1 no account; with the account's credentials epoch after the step.
 */
function decodeSuspensionStep<T extends string>(nothing: T) {
  return (raw: unknown): 'changed' | 'missing' | { status: 'applied' | T; epoch: number } => {
    const [status, epoch] = replyList(raw);
    if (status === 0) return 'changed';
    if (status === -1) return 'missing';
    return { status: status === 1 ? 'applied' : nothing, epoch: Number(epoch) };
  };
}

const suspendAccount = script('suspend_account', decodeSuspensionStep('already'));
const liftSuspension = script('lift_suspension', decodeSuspensionStep('not_suspended'));

/**
 * Suspensions, one field per suspended account in its index partition (keys.suspensions), beside the
 * account and its discovery entries: suspending takes the account out of every entry and lifting puts it
 * back, each in one script with the record (lua/suspend_account-4+.lua, lua/lift_suspension-4+.lua), so
 * browse and the feed's unranked rest never show a suspended account. Others' ranked feeds may still hold
 * it: their reads ask `suspendedAmong`.
 */
export class SuspensionRepository {
  constructor(
    private readonly redis: RedisClient,
    private readonly scripts: Scripts,
    private readonly filing: AccountFiling,
  ) {}

  /**
   * Suspends the account: `suspended` when it was not, `already` (the first record kept), with its
   * credentials epoch after the step (moved on when suspended: every token issued before ends); undefined
   * when the pool holds no such account.
   */
  async suspend(pool: Pool, id: number, suspension: Suspension): Promise<{ status: 'applied' | 'already'; epoch: number } | undefined> {
    const part = indexPartition(id);
    const reply = await this.step(pool, id, (stored) => {
      const { sets, roster, offset } = this.filing.entries(pool, id, decodeCard(id, stored));
      return this.scripts.run(
        suspendAccount,
        [keys.accounts(pool, part), keys.suspensions(pool, part), roster, keys.epochs(pool, part), ...sets],
        [id, stored, JSON.stringify(suspension), offset],
      );
    });
    if (reply?.status === 'applied') await adjustPoolSize(this.scripts, pool, -1);
    return reply;
  }

  /** Lifts the account's suspension: `done` or `not_suspended`, with its credentials epoch after the step; undefined when the pool holds no such account. */
  async lift(pool: Pool, id: number): Promise<{ status: 'applied' | 'not_suspended'; epoch: number } | undefined> {
    const part = indexPartition(id);
    const reply = await this.step(pool, id, (stored) => {
      const { sets, roster, offset, code } = this.filing.entries(pool, id, decodeCard(id, stored));
      return this.scripts.run(
        liftSuspension,
        [keys.accounts(pool, part), keys.suspensions(pool, part), roster, keys.epochs(pool, part), ...sets],
        [id, stored, code, offset],
      );
    });
    if (reply?.status === 'applied') await adjustPoolSize(this.scripts, pool, 1);
    return reply;
  }

  /** The account's suspension, or null when it is not suspended. */
  async find(pool: Pool, id: number): Promise<Suspension | null> {
    const raw = await this.redis.hget(keys.suspensions(pool, indexPartition(id)), String(id));
    return raw ? (JSON.parse(raw) as Suspension) : null;
  }

  /** Which of `ids` are suspended (one HMGET per index partition, sent together). */
  suspendedAmong(pool: Pool, ids: readonly number[]): Promise<Set<number>> {
    return suspendedAmong(this.redis, pool, ids);
  }

  /** Runs `apply` on the account as read until it applies to that same account (onStoredAccount); undefined when there is none. */
  private async step<T>(pool: Pool, id: number, apply: (stored: string) => Promise<'changed' | 'missing' | T>): Promise<T | undefined> {
    const reply = await onStoredAccount(this.redis, pool, id, apply);
    return reply === 'missing' ? undefined : reply;
  }
}

/** Which of `ids` of `pool` are suspended (one HMGET per index partition, sent together). */
export async function suspendedAmong(redis: RedisClient, pool: Pool, ids: readonly number[]): Promise<Set<number>> {
  const byPartition = new Map<number, number[]>();
  for (const id of new Set(ids)) byPartition.set(indexPartition(id), [...(byPartition.get(indexPartition(id)) ?? []), id]);
  const out = new Set<number>();
  await Promise.all(
    [...byPartition].map(async ([part, members]) => {
      const found = await redis.hmget(keys.suspensions(pool, part), ...members.map(String));
      members.forEach((id, i) => {
        if (found[i]) out.add(id);
      });
    }),
  );
  return out;
}
