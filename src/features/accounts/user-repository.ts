import type { RedisClient } from '../../platform/redis/redis.js';
import { AppError } from '../../platform/core/errors.js';
import type { ProfileSource } from './profile.js';
import type { Pool } from '../../platform/core/pool.js';
import { emailBucket, indexPartition } from '../../platform/redis/key-space.js';
import { keys } from '../../platform/redis/keys.js';
import { encodeAccount } from './profile-cards.js';
import { reserveIds } from '../../platform/redis/id-block.js';
import { optionalReplyText, replyIsOne } from '../../platform/redis/raw-reply.js';
import { script } from '../../platform/redis/script.js';
import type { Scripts } from '../../platform/redis/scripts.js';
import { parseEpoch } from './account-standing.js';
import { adjustPoolSize } from './pool-size-repository.js';

import { fromStored, type UserRecord } from './user-record.js';

export type { UserRecord } from './user-record.js';

export type NewUser = Omit<UserRecord, 'id' | 'createdAt'>;
/** A change of profile: any field of the profile but the account's id and creation time. */
export type ProfileChanges = Partial<Omit<ProfileSource, 'id' | 'createdAt'>>;
/** An applied profile change: the account as it was just before, and as it is now. */
export type ProfileUpdated = { previous: UserRecord; user: UserRecord };

/** Where an account is filed for discovery, written in the account's own script: its index sets and roster entry. */
export type AccountEntries = { sets: string[]; roster: string; bucket: number; offset: number; code: number };

/** Files accounts for discovery (the discovery feature provides it; the account is written with its entries). */
export type AccountFiling = {
  entries(pool: Pool, id: number, profile: ProfileSource): AccountEntries;
  sets(pool: Pool, id: number, profile: ProfileSource): string[];
};

/** How often a write of an account is retried while other writes of it keep landing first (onStoredAccount). */
const MAX_WRITE_ATTEMPTS = 50;
/**
 * A reservation of an e-mail whose account does not exist after this long was left by a registration
 * that crashed between reserving the e-mail and writing the account: a new registration takes it over.
 */
export const EMAIL_RESERVATION_STALE_MS = 30_000;

/** What a compare-and-set script of an account did: applied, `changed` (the account changed under it: read again) or `missing`. */
export const decodeApplied = (raw: unknown) => (raw === 1 ? 'applied' : raw === 0 ? 'changed' : 'missing');

const createUser = script('create_user', replyIsOne);
export const updateProfile = script('update_profile', decodeApplied);
/** lua/change_password-2.lua: the account's new credentials epoch, 'changed' (read again) or 'missing'. */
const changePassword = script('change_password', (raw) => (raw === 0 ? ('changed' as const) : raw === -1 ? ('missing' as const) : Number(raw)));
export const claimEmail = script('claim_email', replyIsOne);
/** lua/read_visible_account-2.lua: the account as stored; null when there is none or it is suspended. */
const readVisibleAccount = script('read_visible_account', (raw) => optionalReplyText(raw) ?? null);

/** Who an e-mail entry names: "<pool>:<id>:<reserved at ms>" while reserved, "<pool>:<id>" once its account is written. */
type EmailOwner = { pool: Pool; id: string; reservedMs: number };
export const parseOwner = (value: string): EmailOwner => {
  const [pool, id, ms] = value.split(':') as [Pool, string, string | undefined];
  return { pool, id, reservedMs: Number(ms ?? 0) || 0 };
};

/**
 * E-mails are a namespace per pool: the same e-mail may hold one agent account and one member account,
 * so registering in one pool neither reveals nor blocks the other's. An entry's field is
 * "<pool>:<e-mail>" (an e-mail address has no ":"), in the same bucket as before. Entries written before
 * this change are the bare e-mail, naming their pool in the value: they are still read, as the account of
 * that pool only, and no longer written.
 */
export const emailField = (pool: Pool, email: string) => `${pool}:${email}`;

/**
 * Accounts, each one field of its index partition's accounts hash (keys.accounts, encoded by
 * profile-cards.ts), beside its discovery entries, so an account write and its entries are one
 * single-slot script:
 *
 * - create: reserve the e-mail (HSETNX in its shard's part of the e-mail index, or take over a stale
 *   reservation whose account never came; another slot), then write the account with its entries
 *   (lua/create_user-3+.lua), then settle the reservation into the e-mail's lasting entry;
 * - update: merge the patch into the account read, and write it with its entries moved, only while the
 *   account is still as read (lua/update_profile-3+.lua), else read again and retry.
 *
 * An e-mail reserved for an account that does not exist is no account.
 */
export class UserRepository {
  constructor(
    private readonly redis: RedisClient,
    private readonly scripts: Scripts,
    private readonly filing: AccountFiling,
  ) {}

  /** Creates the account; undefined when the e-mail is already taken. */
  async create(user: NewUser, now = new Date()): Promise<UserRecord | undefined> {
    const id = await this.scripts.runAcknowledged(reserveIds, [keys.userSeq(user.pool)], [1]);
    const record: UserRecord = { ...user, id, createdAt: now.toISOString() };
    const reservation = `${user.pool}:${id}:${now.getTime()}`;
    if (!(await this.reserveEmail(user.pool, user.email, reservation, now.getTime()))) return undefined;
    const part = indexPartition(id);
    const { sets, roster, bucket, offset, code } = this.filing.entries(user.pool, id, record);
    let created: boolean;
    try {
      created = await this.scripts.runAcknowledged(
        createUser,
        [keys.accounts(user.pool, part), roster, keys.rosterBuckets(user.pool, part), ...sets],
        [id, encodeAccount(record, record), code, bucket, offset],
      );
    } catch (error) {
      await this.releaseEmail(user.pool, user.email, reservation);
      throw error;
    }
    if (!created) {
      await this.releaseEmail(user.pool, user.email, reservation);
      return undefined;
    }
    await adjustPoolSize(this.scripts, user.pool, 1);
    await this.settleEmail(user.email, reservation, record);
    return record;
  }

  /** True when the e-mail belongs to an account of `pool` (a reservation whose account does not exist is none). */
  async emailExists(pool: Pool, email: string): Promise<boolean> {
    return (await this.findByEmail(pool, email)) !== undefined;
  }

  /** The account of `pool` an e-mail belongs to: its entry in the pool's namespace, else an entry of the older shared form naming that pool. */
  async findByEmail(pool: Pool, email: string): Promise<UserRecord | undefined> {
    const index = keys.emails(emailBucket(email));
    const [entry, shared] = await Promise.all([this.redis.hget(index, emailField(pool, email)), this.redis.hget(index, email)]);
    for (const held of [entry, shared]) {
      if (!held) continue;
      const owner = parseOwner(held);
      if (owner.pool !== pool) continue;
      const user = await this.find(pool, owner.id);
      if (user) return user;
    }
    return undefined;
  }

  /**
   * The account of `pool` an e-mail belongs to, with its credentials epoch read before it: a token issued
   * for a password checked against this account then carries an epoch no later than the password's, so a
   * password change (which moves the epoch on with the hash, lua/change_password-2.lua) ends it too,
   * however the two raced. Both reads go on one connection in this order (one slot, so one node).
   */
  async findForLogin(pool: Pool, email: string): Promise<{ user: UserRecord; epoch: number } | undefined> {
    const found = await this.findByEmail(pool, email);
    if (!found) return undefined;
    const part = indexPartition(found.id);
    const [epoch, stored] = await Promise.all([
      this.redis.hget(keys.epochs(pool, part), String(found.id)),
      this.redis.hget(keys.accounts(pool, part), String(found.id)),
    ]);
    return stored ? { user: fromStored(pool, found.id, stored), epoch: parseEpoch(epoch).epoch } : undefined;
  }

  /** The account `id` within `pool`; undefined when it does not exist there (in particular in the other pool). */
  async find(pool: Pool, id: number | string): Promise<UserRecord | undefined> {
    const stored = await this.redis.hget(keys.accounts(pool, indexPartition(id)), String(id));
    return stored ? fromStored(pool, Number(id), stored) : undefined;
  }

  findMany(pool: Pool, ids: readonly (number | string)[]): Promise<Array<UserRecord | undefined>> {
    return findAccounts(this.redis, pool, ids);
  }

  /** True when the account exists in `pool`. */
  async exists(pool: Pool, id: number | string): Promise<boolean> {
    return (await this.redis.hexists(keys.accounts(pool, indexPartition(id)), String(id))) === 1;
  }

  /**
   * Merges `changes` into the stored account and moves its discovery entries to the merged profile, in a
   * script (lua/update_profile-3+.lua) that applies only while the account is still as read here (when
   * another write of the account landed in between, it reads again and retries). No changes: writes the
   * stored profile again. Undefined when the account does not exist.
   */
  async update(pool: Pool, id: number, changes: ProfileChanges): Promise<ProfileUpdated | undefined> {
    const patch = definedOnly(changes);
    return this.rewrite(pool, id, (previous) => ({ ...previous, ...patch }));
  }

  /**
   * Replaces the account's password hash and ends every token issued before but `keep` (lua/change_password-2.lua);
   * the account's new credentials epoch, or undefined when the account does not exist.
   */
  async changePassword(pool: Pool, id: number, passwordHash: string, keep: { jti: string; epoch: number }): Promise<number | undefined> {
    const part = indexPartition(id);
    return onStoredAccount(this.redis, pool, id, async (stored) => {
      const next = { ...fromStored(pool, id, stored), passwordHash };
      const reply = await this.scripts.run(
        changePassword,
        [keys.accounts(pool, part), keys.epochs(pool, part)],
        [id, stored, encodeAccount(next, next), keep.jti, keep.epoch],
      );
      return reply === 'missing' ? undefined : reply;
    });
  }

  /** Writes `change(stored)` over the stored account, with its entries moved, while the account is still as read (update's loop). */
  private async rewrite(pool: Pool, id: number, change: (previous: UserRecord) => UserRecord): Promise<ProfileUpdated | undefined> {
    const part = indexPartition(id);
    const accounts = keys.accounts(pool, part);
    return onStoredAccount(this.redis, pool, id, async (stored) => {
      const previous = fromStored(pool, id, stored);
      const next = change(previous);
      const { sets, roster, offset, code } = this.filing.entries(pool, id, next);
      const leaving = this.filing.sets(pool, id, previous).filter((key) => !sets.includes(key));
      const applied = await this.scripts.run(
        updateProfile,
        [accounts, keys.suspensions(pool, part), roster, ...leaving, ...sets],
        [id, stored, encodeAccount(next, next), code, leaving.length, offset],
      );
      if (applied === 'missing') return undefined;
      return applied === 'applied' ? { previous, user: next } : 'changed';
    });
  }

  /**
   * Reserves the e-mail for the account about to be written: HSETNX, or, when the e-mail is held by a
   * reservation older than EMAIL_RESERVATION_STALE_MS whose account does not exist, a compare-and-set
   * that takes it over (lua/claim_email-1.lua). False when the e-mail is taken.
   */
  private async reserveEmail(pool: Pool, email: string, value: string, nowMs: number): Promise<boolean> {
    const index = keys.emails(emailBucket(email));
    const field = emailField(pool, email);
    // An entry of the older shared form is never written again, so checking it once is enough.
    const shared = await this.redis.hget(index, email);
    if (shared) {
      const owner = parseOwner(shared);
      if (owner.pool === pool && (await this.exists(pool, owner.id))) return false;
    }
    for (let attempt = 0; attempt < 3; attempt++) {
      if ((await this.redis.hsetnx(index, field, value)) === 1) return true;
      const held = await this.redis.hget(index, field);
      if (held === null) continue;
      const owner = parseOwner(held);
      if (nowMs - owner.reservedMs < EMAIL_RESERVATION_STALE_MS) return false;
      if (await this.exists(owner.pool, owner.id)) return false;
      if (await this.claimEmail(field, email, held, value)) return true;
    }
    return false;
  }

  /**
   * Turns the reservation of an account now written into its lasting entry, "<pool>:<id>" (shorter; best
   * effort: a reservation whose account exists names it just as well).
   */
  private async settleEmail(email: string, reservation: string, owner: { pool: Pool; id: number }): Promise<void> {
    await this.claimEmail(emailField(owner.pool, email), email, reservation, `${owner.pool}:${owner.id}`).catch(() => {});
  }

  /** Gives back a reservation whose account could not be written (best effort: a stale one is taken over anyway). */
  private async releaseEmail(pool: Pool, email: string, value: string): Promise<void> {
    await this.claimEmail(emailField(pool, email), email, value, '').catch(() => {});
  }

  /** lua/claim_email-1.lua: the e-mail's entry becomes `next` ("" removes it) only while it is `expected`; true when it did. */
  private claimEmail(field: string, email: string, expected: string, next: string): Promise<boolean> {
    return this.scripts.runAcknowledged(claimEmail, [keys.emails(emailBucket(email))], [field, expected, next]);
  }
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Accounts `ids` of `pool`, in order; undefined for an id with no account there. */
export async function findAccounts(redis: RedisClient, pool: Pool, ids: readonly (number | string)[]): Promise<Array<UserRecord | undefined>> {
  if (ids.length === 0) return [];
  // One command per account (accounts lie in several hash slots), sent together by automatic pipelining.
  const stored = await Promise.all(ids.map((id) => redis.hget(keys.accounts(pool, indexPartition(id)), String(id))));
  return stored.map((value, i) => (value ? fromStored(pool, Number(ids[i]), value) : undefined));
}

/** Account `id` of `pool` as stored (lua/read_visible_account-2.lua), or null when there is none or it is suspended. */
export function visibleAccountOf(scripts: Scripts, pool: Pool, id: number): Promise<string | null> {
  const part = indexPartition(id);
  return scripts.runHot(readVisibleAccount, [keys.accounts(pool, part), keys.suspensions(pool, part)], [id]);
}

/** Account `id` of `pool` as stored, or null when there is none. */
export function storedAccountOf(scripts: Scripts, pool: Pool, id: number): Promise<string | null> {
  return scripts.hgetHot(keys.accounts(pool, indexPartition(id)), String(id));
}

/**
 * Runs `apply` on account `id` as stored until it applies to that same account: a script that writes only
 * while the stored account is the one read answers 'changed' when another write landed in between, and the
 * account is read again. Undefined when there is no such account; 503 (retry in a second) when writes keep
 * landing first. The compare-and-set of profile writes, suspensions and leaving.
 */
export async function onStoredAccount<T>(
  redis: RedisClient,
  pool: Pool,
  id: number,
  apply: (stored: string) => Promise<T | 'changed'>,
): Promise<T | undefined> {
  for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
    const stored = await redis.hget(keys.accounts(pool, indexPartition(id)), String(id));
    if (!stored) return undefined;
    const reply = await apply(stored);
    if (reply !== 'changed') return reply;
  }
  throw new AppError('unavailable', 'This account is being changed by many requests at once; retry in a second.', undefined, { retryAfterSeconds: 1 });
}
