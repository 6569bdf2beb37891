import { keys } from '../../platform/redis/keys.js';
import type { RedisClient } from '../../platform/redis/redis.js';

const MINUTE_MS = 60_000;
const DAY_TALLY_TTL_MS = 2 * 24 * 60 * 60 * 1000;
const MINUTE_TALLY_TTL_MS = 3 * MINUTE_MS;
/** A process whose field was not rewritten for this long is gone (it rewrites every WATCHERS_REFRESH_MS). */
const WATCHERS_STALE_MS = 30_000;
export const WATCHERS_REFRESH_MS = 10_000;

export type SpectatorTallies = {
  /** Spectator events of the UTC day so far, by type. */
  today: Record<string, number>;
  /** Spectator events of the last 60 s (the previous minute weighted by how much of it is still inside). */
  eventsPerMinute: number;
  /** Open spectator sockets summed over the other processes that reported in the last 30 s. */
  watchingElsewhere: number;
};

const dayOf = (at: string | number) => new Date(at).toISOString().slice(0, 10);

/**
 * Plain counters of the public spectator feed, in the spectator stream's slot: events per UTC day and per
 * minute, and each process's number of open spectator sockets. Figures for people to read: an event is
 * counted after it is appended, so a crash in between leaves it uncounted.
 */
export class SpectatorTallyRepository {
  constructor(private readonly redis: RedisClient) {}

  readonly count = async (type: string, at: string): Promise<void> => {
    const ms = Date.parse(at) || Date.now();
    const day = keys.spectatorDayTally(dayOf(ms));
    const minute = keys.spectatorMinuteTally(Math.floor(ms / MINUTE_MS));
    await Promise.all([
      this.redis.hincrby(day, type, 1),
      this.redis.pexpire(day, DAY_TALLY_TTL_MS),
      this.redis.incr(minute),
      this.redis.pexpire(minute, MINUTE_TALLY_TTL_MS),
    ]);
  };

  /** Records this process's open spectator sockets. */
  async reportWatchers(processKey: string, count: number, now = Date.now()): Promise<void> {
    await this.redis.hset(keys.spectatorWatchers(), processKey, `${count}:${now}`);
  }

  /** The figures; `processKey`'s own report is left out of the sum (the process adds its count of now). */
  async read(processKey: string, now = Date.now()): Promise<SpectatorTallies> {
    const minute = Math.floor(now / MINUTE_MS);
    const [day, current, previous, watchers] = await Promise.all([
      this.redis.hgetall(keys.spectatorDayTally(dayOf(now))),
      this.redis.get(keys.spectatorMinuteTally(minute)),
      this.redis.get(keys.spectatorMinuteTally(minute - 1)),
      this.redis.hgetall(keys.spectatorWatchers()),
    ]);
    const today = Object.fromEntries(Object.entries(day).map(([type, n]) => [type, Number(n) || 0]));
    const inside = 1 - (now % MINUTE_MS) / MINUTE_MS;
    const eventsPerMinute = Math.round(Number(current ?? 0) + Number(previous ?? 0) * inside);
    let watchingElsewhere = 0;
    const gone: string[] = [];
    for (const [reporter, value] of Object.entries(watchers)) {
      const [count, at] = value.split(':').map(Number);
      if (now - (at ?? 0) > WATCHERS_STALE_MS) gone.push(reporter);
      else if (reporter !== processKey) watchingElsewhere += count ?? 0;
    }
    if (gone.length > 0) await this.redis.hdel(keys.spectatorWatchers(), ...gone);
    return { today, eventsPerMinute, watchingElsewhere };
  }
}
