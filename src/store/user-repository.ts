import type { RedisClient } from './redis.js';
import type { Gender } from '../domain/account-schemas.js';
import { AppError } from '../domain/errors.js';
import type { ProfileSource } from '../domain/profile.js';
import type { Pool } from '../domain/pool.js';
import { AccountIndex, accountIndexedEffect, type AccountIndexedEffect } from './account-index.js';
import { userShard } from './key-space.js';
import { keys } from './keys.js';
import { OutboxRecords } from './outbox-records.js';
import type { Scripts } from './scripts.js';

/** An account as stored: its profile, and the pool, e-mail and password hash it signs in with. */
export type UserRecord = ProfileSource & { pool: Pool; email: string; passwordHash: string };

export type NewUser = Omit<UserRecord, 'id' | 'createdAt'>;
/** A change of profile: any field of the profile but the account's id and creation time. */
export type ProfileChanges = Partial<Omit<ProfileSource, 'id' | 'createdAt'>>;
/** An applied profile change: the account as it was just before, and as it is now. */
export type ProfileUpdated = { previous: UserRecord; user: UserRecord };

/** How often a profile write is retried while other writes of the same account keep landing first. */
const MAX_UPDATE_ATTEMPTS = 50;
/**
 * A reservation of an e-mail whose account does not exist after this long was left by a registration
 * that crashed between reserving the e-mail and writing the account: a new registration takes it over.
 */
export const EMAIL_RESERVATION_STALE_MS = 30_000;

const FIELD: Record<keyof UserRecord, string> = {
  id: 'id', pool: 'pool', email: 'email', passwordHash: 'password_hash', displayName: 'display_name',
  birthdate: 'birthdate', gender: 'gender', bio: 'bio', interests: 'interests', city: 'city', state: 'state',
  themeId: 'theme_id', createdAt: 'created_at',
};

/** Who an e-mail key names: "<pool>:<id>:<reserved at ms>" (no ms in values written before reservations had one). */
type EmailOwner = { pool: Pool; id: string; reservedMs: number };
const parseOwner = (value: string): EmailOwner => {
  const [pool, id, ms] = value.split(':') as [Pool, string, string | undefined];
  return { pool, id, reservedMs: Number(ms ?? 0) || 0 };
};

/**
 * Accounts, stored as one hash per account in its shard. The account's e-mail key and its discovery
 * entries live in other hash slots, so each write is a sequence of single-slot steps:
 *
 * - create: reserve the e-mail (SET NX, or take over a stale reservation whose account never came), then
 *   write the account together with a pending outbox record of its index entries (lua/create_user.lua),
 *   then apply them in the account's index partition (AccountIndex) and complete the record;
 * - update: write the patch together with a pending record of the re-index (lua/update_profile.lua),
 *   then apply it and complete the record.
 *
 * A step that fails after the commit leaves the record for the outbox sweeper (the follow-up is
 * idempotent and ordered by the account's version); an e-mail reserved for an account that does not
 * exist is no account.
 */
export class UserRepository {
  private readonly index: AccountIndex;
  private readonly outbox: OutboxRecords;

  constructor(
    private readonly redis: RedisClient,
    private readonly scripts: Scripts,
  ) {
    this.index = new AccountIndex(redis, scripts);
    this.outbox = new OutboxRecords(redis);
  }

  /** Creates the account; undefined when the e-mail is already taken. */
  async create(user: NewUser, now = new Date()): Promise<UserRecord | undefined> {
    const id = await this.redis.incr(keys.userSeq(user.pool));
    const record: UserRecord = { ...user, id, createdAt: now.toISOString() };
    const reservation = `${user.pool}:${id}:${now.getTime()}`;
    if (!(await this.reserveEmail(user.email, reservation, now.getTime()))) return undefined;
    const effect = accountIndexedEffect(user.pool, id, 0, record);
    const pendingId = `account:${id}:0`;
    const shard = userShard(id);
    let created: number;
    try {
      created = await this.scripts.run<number>(
        'create_user',
        [keys.user(user.pool, id), keys.shardOutbox(user.pool, shard), keys.shardOutboxDue(user.pool, shard)],
        [pendingId, now.getTime(), JSON.stringify([effect]), ...toFields(record)],
      );
    } catch (error) {
      await this.releaseEmail(user.email, reservation);
      throw error;
    }
    if (created !== 1) {
      await this.releaseEmail(user.email, reservation);
      return undefined;
    }
    await this.followUp(user.pool, shard, pendingId, effect);
    return record;
  }

  /** True when the e-mail belongs to an account (a reservation whose account does not exist is none). */
  async emailExists(email: string): Promise<boolean> {
    return (await this.findByEmail(email)) !== undefined;
  }

  /** The account an e-mail belongs to, in whichever pool (login is shared by both). */
  async findByEmail(email: string): Promise<UserRecord | undefined> {
    const owner = await this.redis.get(keys.email(email));
    if (!owner) return undefined;
    const { pool, id } = parseOwner(owner);
    return this.find(pool, id);
  }

  /** The account `id` within `pool`; undefined when it does not exist there (in particular in the other pool). */
  async find(pool: Pool, id: number | string): Promise<UserRecord | undefined> {
    const hash = await this.redis.hgetall(keys.user(pool, id));
    return hash.id ? fromHash(hash) : undefined;
  }

  async findMany(pool: Pool, ids: readonly (number | string)[]): Promise<Array<UserRecord | undefined>> {
    if (ids.length === 0) return [];
    // One command per account (accounts lie in many hash slots), sent together by automatic pipelining.
    const hashes = await Promise.all(ids.map((id) => this.redis.hgetall(keys.user(pool, id))));
    return hashes.map((h) => (h.id ? fromHash(h) : undefined));
  }

  /**
   * Merges `changes` into the stored account in a script (lua/update_profile.lua) that applies only while
   * the account is still as read here (when another write of the account landed in between, it reads
   * again and retries), then moves its discovery entries to the merged profile. No changes: re-indexes
   * the stored profile. Undefined when the account does not exist.
   */
  async update(pool: Pool, id: number, changes: ProfileChanges): Promise<ProfileUpdated | undefined> {
    const patch = definedOnly(changes);
    const user = keys.user(pool, id);
    const shard = userShard(id);
    for (let attempt = 0; attempt < MAX_UPDATE_ATTEMPTS; attempt++) {
      const stored = await this.redis.hgetall(user);
      if (!stored.id) return undefined;
      const previous = fromHash(stored);
      const next: UserRecord = { ...previous, ...patch };
      const version = Number(stored.version ?? 0) + 1;
      const effect = accountIndexedEffect(pool, id, version, next);
      const pendingId = `account:${id}:${version}`;
      const applied = await this.scripts.run<number>(
        'update_profile',
        [user, keys.shardOutbox(pool, shard), keys.shardOutboxDue(pool, shard)],
        [stored.version ?? '0', pendingId, Date.now(), JSON.stringify([effect]), ...toFields(next, Object.keys(patch) as Array<keyof UserRecord>)],
      );
      if (applied === -1) return undefined;
      if (applied === 1) {
        await this.followUp(pool, shard, pendingId, effect);
        return { previous, user: next };
      }
    }
    throw new AppError('unavailable', 'This profile is being changed by many requests at once; retry in a second.', undefined, { retryAfterSeconds: 1 });
  }

  /** Applies a committed write's index entries and completes its record; on failure the record stays for the sweeper. */
  private async followUp(pool: Pool, shard: number, pendingId: string, effect: AccountIndexedEffect): Promise<void> {
    try {
      await this.index.apply(pool, effect);
      await this.outbox.complete(pool, shard, pendingId);
    } catch {
      // The account is saved; its pending record holds the entries, applied by the sweeper (or by the
      // next ranking of the account, which re-indexes an account it finds unindexed).
    }
  }

  /**
   * Reserves the e-mail for the account about to be written: SET NX, or, when the e-mail is held by a
   * reservation older than EMAIL_RESERVATION_STALE_MS whose account does not exist, a compare-and-set
   * that takes it over (lua/claim_email.lua). False when the e-mail is taken.
   */
  private async reserveEmail(email: string, value: string, nowMs: number): Promise<boolean> {
    const key = keys.email(email);
    for (let attempt = 0; attempt < 3; attempt++) {
      if ((await this.redis.set(key, value, 'NX')) === 'OK') return true;
      const held = await this.redis.get(key);
      if (held === null) continue;
      const owner = parseOwner(held);
      if (nowMs - owner.reservedMs < EMAIL_RESERVATION_STALE_MS) return false;
      if ((await this.redis.exists(keys.user(owner.pool, owner.id))) === 1) return false;
      if ((await this.scripts.run<number>('claim_email', [key], [held, value])) === 1) return true;
    }
    return false;
  }

  /** Gives back a reservation whose account could not be written (best effort: a stale one is taken over anyway). */
  private async releaseEmail(email: string, value: string): Promise<void> {
    await this.scripts.run('claim_email', [keys.email(email)], [value, '']).catch(() => {});
  }
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function toFields(record: UserRecord, only?: Array<keyof UserRecord>): string[] {
  const out: string[] = [];
  for (const key of only ?? (Object.keys(FIELD) as Array<keyof UserRecord>)) {
    const value = record[key];
    out.push(FIELD[key], key === 'interests' ? JSON.stringify(value) : String(value));
  }
  return out;
}

function fromHash(h: Record<string, string>): UserRecord {
  return {
    id: Number(h.id),
    pool: h.pool as Pool,
    email: h.email ?? '',
    passwordHash: h.password_hash ?? '',
    displayName: h.display_name ?? '',
    birthdate: h.birthdate ?? '',
    gender: h.gender as Gender,
    bio: h.bio ?? '',
    interests: h.interests ? (JSON.parse(h.interests) as string[]) : [],
    city: h.city ?? '',
    state: h.state ?? '',
    themeId: Number(h.theme_id ?? 1),
    createdAt: h.created_at ?? '',
  };
}
