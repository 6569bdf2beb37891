import type { Redis } from 'ioredis';
import type { Gender } from '../domain/account-schemas.js';
import { keys, type Pool } from './keys.js';
import type { Scripts } from './scripts.js';

export type UserRecord = {
  id: number;
  pool: Pool;
  email: string;
  passwordHash: string;
  displayName: string;
  birthdate: string;
  gender: Gender;
  bio: string;
  interests: string[];
  city: string;
  state: string;
  themeId: number;
  createdAt: string;
};

export type NewUser = Omit<UserRecord, 'id' | 'createdAt'>;
export type ProfileChanges = Partial<Pick<UserRecord, 'displayName' | 'birthdate' | 'gender' | 'bio' | 'interests' | 'city' | 'state' | 'themeId'>>;

const FIELD: Record<keyof UserRecord, string> = {
  id: 'id', pool: 'pool', email: 'email', passwordHash: 'password_hash', displayName: 'display_name',
  birthdate: 'birthdate', gender: 'gender', bio: 'bio', interests: 'interests', city: 'city', state: 'state',
  themeId: 'theme_id', createdAt: 'created_at',
};

/** Accounts, stored as one hash per account under its pool's key space. */
export class UserRepository {
  constructor(private readonly redis: Redis, private readonly scripts: Scripts) {}

  /** Creates the account; undefined when the e-mail is already taken. */
  async create(user: NewUser, now = new Date()): Promise<UserRecord | undefined> {
    const id = await this.redis.incr(keys.userSeq(user.pool));
    const record: UserRecord = { ...user, id, createdAt: now.toISOString() };
    const created = await this.scripts.run<number>(
      'create_user',
      [keys.email(user.email), keys.user(user.pool, id), keys.poolUsers(user.pool)],
      [`${user.pool}:${id}`, id, now.getTime(), ...toFields(record)],
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

  /** Applies changes to an existing account; returns the updated record, or undefined when it is gone. */
  async update(pool: Pool, id: number, changes: ProfileChanges): Promise<UserRecord | undefined> {
    const current = await this.find(pool, id);
    if (!current) return undefined;
    const next: UserRecord = { ...current, ...definedOnly(changes) };
    const fields = toFields(next, Object.keys(definedOnly(changes)) as Array<keyof UserRecord>);
    if (fields.length > 0) await this.redis.hset(keys.user(pool, id), ...fields);
    return next;
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
