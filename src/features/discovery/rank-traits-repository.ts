import type { RedisClient } from '../../platform/redis/redis.js';
import { replyIsOne } from '../../platform/redis/raw-reply.js';
import { script } from '../../platform/redis/script.js';
import type { Scripts } from '../../platform/redis/scripts.js';
import type { Pool } from '../../platform/core/pool.js';
import { keys } from '../../platform/redis/keys.js';
import { indexPartition } from '../../platform/redis/key-space.js';
import { decodeTaste, NO_TASTE, type Taste } from './swipe-taste.js';
import { inSteps } from './feed-candidates-repository.js';

/** What the reciprocal ranking knows of an account besides its interests (keys.rankTraits). */
export type Traits = {
  /** Its interest mass, gender (GENDERS index) and birthdate (YYYYMMDD), as of its last ranking. */
  mass?: number;
  gender?: number;
  birth?: number;
  taste: Taste;
  lastActiveMs?: number;
};

/** How many of the swipes sent taught a taste. */
const noteSwipe = script('note_swipe', Number);
/** Whether the target's feed changed. */
const liftLiker = script('lift_liker', replyIsOne);

/** How many of the newest likers of an account are kept for its rankings. */
export const LIKERS_KEPT = 100;
/** An account's activity is written at most once per this long by one process. */
const ACTIVE_EVERY_MS = 60_000;
/** The most accounts whose last write of activity a process remembers (then it forgets them all). */
const ACTIVE_REMEMBERED = 10_000;

/**
 * The reciprocal ranking's per-account signals: profile traits, tastes, last activity (one hash per index
 * partition) and each account's newest likers (a small sorted set in its shard).
 */
export class RankTraitsRepository {
  private readonly activeWritten = new Map<string, number>();
  /** Called before the traits are read: what is gathered to be written (swipes' notes) is sent first. */
  private readonly beforeReads: Array<() => void> = [];

  constructor(
    private readonly redis: RedisClient,
    private readonly scripts: Scripts,
  ) {}

  /** `send` is called before every read of the traits, to send what it holds back (on the hot connection, so the read comes after it). */
  beforeRead(send: () => void) {
    this.beforeReads.push(send);
  }

  /** Sends what is held back for the traits, before they are read (see `beforeRead`). */
  readingSoon() {
    for (const send of this.beforeReads) send();
  }

  /** The traits of `ids`, one HMGET per partition and step (three fields an id). */
  async read(pool: Pool, ids: readonly string[], step: number): Promise<Map<string, Traits>> {
    this.readingSoon();
    const out = new Map<string, Traits>();
    const byPart = new Map<number, string[]>();
    for (const id of ids) {
      const part = indexPartition(id);
      (byPart.get(part) ?? byPart.set(part, []).get(part)!).push(id);
    }
    const perCall = Math.max(1, Math.floor(step / 3));
    await Promise.all(
      [...byPart].map(([part, members]) =>
        inSteps(members, perCall, async (chunk) => {
          const fields: string[] = [];
          for (const id of chunk) fields.push(`p:${id}`, `t:${id}`, `a:${id}`);
          // A read only, so the hot connection serves it when there is one (the ranking's busiest read).
          const values = await this.scripts.hmgetHot(keys.rankTraits(pool, part), fields);
          chunk.forEach((id, i) => out.set(id, decodeTraits(values[3 * i], values[3 * i + 1], values[3 * i + 2])));
        }),
      ),
    );
    return out;
  }

  /** Records an account's profile traits (by its own ranking). */
  async writeProfile(pool: Pool, id: number, mass: number, gender: number, birth: number): Promise<void> {
    await this.redis.hset(keys.rankTraits(pool, indexPartition(id)), `p:${id}`, `${mass},${gender},${birth}`);
  }

  /** Marks the account active now, unless this process did so within the last minute. */
  async touch(pool: Pool, id: number, nowMs = Date.now()): Promise<void> {
    const key = `${pool}:${id}`;
    const last = this.activeWritten.get(key);
    if (last !== undefined && nowMs - last < ACTIVE_EVERY_MS) return;
    if (this.activeWritten.size >= ACTIVE_REMEMBERED) this.activeWritten.clear();
    this.activeWritten.set(key, nowMs);
    await this.redis.hset(keys.rankTraits(pool, indexPartition(id)), `a:${id}`, String(nowMs));
  }

  /**
   * Notes swipes of accounts of partition `part` (lua/note_swipe-3.lua): `swipers` holds four words per
   * swiper (its id; the time of its latest swipe to learn from, '' when none; what its swipes add to its
   * taste, eleven numbers joined by commas, '' when none; 1 when a swipe took a target out of its feed, else
   * 0). The taste grows and the swiper is marked active; a feed that lost an entry has its floor dropped; a
   * swiper whose account is gone is passed over. One call on the hot connection. Returns how many
   * swipers' tastes were noted.
   */
  async noteSwipes(pool: Pool, part: number, swipers: readonly (string | number)[]): Promise<number> {
    return this.scripts.runHot(noteSwipe, [keys.rankTraits(pool, part), keys.feedFloors(pool, part), keys.accounts(pool, part)], swipers);
  }

  /** The account's newest likers (at most LIKERS_KEPT). */
  likers(pool: Pool, id: number): Promise<string[]> {
    return this.redis.zrange(keys.likers(pool, id), '0', '-1');
  }

  /** Records the like in the target's likers and lifts the liker in its feed (lua/lift_liker-3.lua). */
  async liftLiker(pool: Pool, target: number, liker: number, bonus: number, feedSize: number, nowMs = Date.now()): Promise<boolean> {
    return this.scripts.runHot(
      liftLiker,
      [keys.feed(pool, target), keys.swipes(pool, target), keys.likers(pool, target)],
      [liker, bonus, feedSize, LIKERS_KEPT, nowMs],
    );
  }
}

/** Traits from their three stored fields (keys.rankTraits: `p:<id>`, `t:<id>`, `a:<id>`). */
export function decodeTraits(profile: string | null | undefined, taste: string | null | undefined, active: string | null | undefined): Traits {
  const out: Traits = { taste: taste ? decodeTaste(taste) : NO_TASTE };
  if (profile) {
    const [mass, gender, birth] = profile.split(',').map(Number);
    if (Number.isFinite(mass) && Number.isFinite(gender) && Number.isFinite(birth)) Object.assign(out, { mass, gender, birth });
  }
  if (active && Number.isFinite(Number(active))) out.lastActiveMs = Number(active);
  return out;
}
