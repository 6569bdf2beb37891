import type { SuspensionRepository, UserRecord, UserRepository } from '../accounts/index.js';
import type { FrameBuilder, StoredReference } from '../events/index.js';
import { poolOfKey } from '../../platform/redis/keys.js';
import type { EventAudience } from './match-events.js';
import { buildEvents, isPendingEvent, profilesNeeded, type PendingEvent } from './pending-events.js';

/** The kind of a stream entry that keeps an event's spec rather than the profiles it shows (`match.created`, `like.received`). */
export const PROFILES_KIND = 'p';

/**
 * The frames of stream entries that store an event's spec rather than the profiles it shows, by entry id:
 * each event built again from its spec with the profiles as they are now, and the frame `audience` gives
 * this stream. An entry whose spec is unreadable, or one of whose accounts is gone (it left) or suspended,
 * has no frame: the reader skips it, so a profile that is gone is shown nowhere, in no replay (a suspended
 * one shows again once lifted).
 */
export class ProfileFrames implements FrameBuilder {
  constructor(
    private readonly users: Pick<UserRepository, 'findMany'>,
    private readonly suspensions: Pick<SuspensionRepository, 'suspendedAmong'>,
    private readonly audience: EventAudience,
  ) {}

  async frames(key: string, entries: readonly StoredReference[]): Promise<Map<string, string>> {
    const frames = new Map<string, string>();
    if (entries.length === 0) return frames;
    const pool = poolOfKey(key);
    const specs = entries.map(({ id, ref }) => ({ id, spec: parseSpec(ref) }));
    const ids = profilesNeeded(specs.flatMap(({ spec }) => (spec ? [spec] : [])));
    const [found, suspended] = await Promise.all([this.users.findMany(pool, ids), this.suspensions.suspendedAmong(pool, ids)]);
    const users = new Map<number, UserRecord>();
    for (const user of found) if (user && !suspended.has(user.id)) users.set(user.id, user);
    for (const { id, spec } of specs) {
      if (!spec) continue;
      for (const { event, at } of buildEvents(pool, [spec], users)) {
        const entry = this.audience(event, at).find((candidate) => candidate.target.stream === key);
        if (entry) frames.set(id, entry.body);
      }
    }
    return frames;
  }
}

function parseSpec(text: string): PendingEvent | undefined {
  try {
    const spec = JSON.parse(text) as { type?: unknown };
    return typeof spec === 'object' && spec !== null && typeof spec.type === 'string' && isPendingEvent(spec as { type: string })
      ? (spec as PendingEvent)
      : undefined;
  } catch {
    return undefined;
  }
}
