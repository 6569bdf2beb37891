import type { RedisClient } from './redis.js';
import type { Gender } from '../domain/account-schemas.js';
import { AppError } from '../domain/errors.js';
import type { ProfileSource } from '../domain/profile.js';
import { discoveryEntries, setsOfCard } from './discovery-index.js';
import type { Pool } from '../domain/pool.js';
import { keys } from './keys.js';
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

const FIELD: Record<keyof UserRecord, string> = {
  id: 'id', pool: 'pool', email: 'email', passwordHash: 'password_hash', displayName: 'display_name',
  birthdate: 'birthdate', gender: 'gender', bio: 'bio', interests: 'interests', city: 'city', state: 'state',
  themeId: 'theme_id', createdAt: 'created_at',
};

/**
 * Accounts, stored as one hash per account under its pool's key space. Every write of a profile also
 * moves the account's discovery entries (index sets, birthdate index, profile card) in the same script.
 */
export class UserRepository {
  constructor(private readonly redis: RedisClient, private readonly scripts: Scripts) {}

  /** Creates the account; undefined when the e-mail is already taken. */
  async create(user: NewUser, now = new Date()): Promise<UserRecord | undefined> {
    const id = await this.redis.incr(keys.userSeq(user.pool));
    const record: UserRecord = { ...user, id, createdAt: now.toISOString() };
    const entries = discoveryEntries(user.pool, record);
    const created = await this.scripts.run<number>(
      'create_user',
      [keys.email(user.email), keys.user(user.pool, id), keys.poolUsers(user.pool), keys.profileCards(user.pool), keys.birthIndex(user.pool), ...entries.sets],
      [`${user.pool}:${id}`, id, now.getTime(), entries.card, entries.birth, ...toFields(record)],
    );
    return created === 1 ? record : undefined;
  }

  async emailExists(email: string): Promise<boolean> {
    return (await this.redis.exists(keys.email(email))) === 1;
  }

  /** The account an e-mail belongs to, in whichever pool (login is shared by both). */
  async findByEmail(email: string): Promise<UserRecord | undefined> {
    const owner = await this.redis.get(keys.email(email));
    if (!owner) return undefined;
    const [pool, id] = owner.split(':') as [Pool, string];
    return this.find(pool, id);
  }

  /** The account `id` within `pool`; undefined when it does not exist there (in particular in the other pool). */
  async find(pool: Pool, id: number | string): Promise<UserRecord | undefined> {
    const hash = await this.redis.hgetall(keys.user(pool, id));
    return hash.id ? fromHash(hash) : undefined;
  }

  async findMany(pool: Pool, ids: readonly (number | string)[]): Promise<Array<UserRecord | undefined>> {
    if (ids.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.hgetall(keys.user(pool, id));
    const results = (await pipeline.exec()) ?? [];
    return results.map(([error, hash]) => {
      if (error) throw error;
      const h = hash as Record<string, string>;
      return h.id ? fromHash(h) : undefined;
    });
  }

  /**
   * Merges `changes` into the stored account and moves its discovery entries to the merged profile, in one
   * script (lua/update_profile.lua) that applies only while the account is still as read here; when
   * another write of the account landed in between, it reads again and retries. No changes: re-indexes the
   * stored profile. Undefined when the account does not exist.
   */
  async update(pool: Pool, id: number, changes: ProfileChanges): Promise<ProfileUpdated | undefined> {
    const patch = definedOnly(changes);
    const user = keys.user(pool, id);
    for (let attempt = 0; attempt < MAX_UPDATE_ATTEMPTS; attempt++) {
      // Not MULTI: Redis refuses a transaction outright when full, and the script re-checks the version anyway
      // (the card is read after the hash, so a newer card means a newer version and a retry).
      const [hashReply, cardReply] = (await this.redis.pipeline().hgetall(user).hget(keys.profileCards(pool), String(id)).exec()) ?? [];
      if (!hashReply || !cardReply || hashReply[0] || cardReply[0]) throw hashReply?.[0] ?? cardReply?.[0] ?? new Error('profile read was aborted');
      const stored = hashReply[1] as Record<string, string>;
      const card = cardReply[1] as string | null;
      if (!stored.id) return undefined;
      const previous = fromHash(stored);
      const next: UserRecord = { ...previous, ...patch };
      const before = card ?? '';
      const entries = discoveryEntries(pool, next);
      const leaving = setsOfCard(pool, id, before).filter((key) => !entries.sets.includes(key));
      const applied = await this.scripts.run<number>(
        'update_profile',
        [user, keys.profileCards(pool), keys.birthIndex(pool), ...leaving, ...entries.sets],
        [id, stored.version ?? '0', before, leaving.length, entries.birth, entries.card, ...toFields(next, Object.keys(patch) as Array<keyof UserRecord>)],
      );
      if (applied === -1) return undefined;
      if (applied === 1) return { previous, user: next };
    }
    throw new AppError('unavailable', 'This profile is being changed by many requests at once; retry in a second.', undefined, { retryAfterSeconds: 1 });
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
