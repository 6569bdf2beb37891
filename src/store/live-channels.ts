import { EVENTS_CHANNEL } from './keys.js';

/**
 * The sharded pub/sub channels that carry the live announcements of appended events; the live relay of
 * every process follows all of them. Messages keep the format of `event-streams.ts` (`announcementMessage`).
 */
export function liveChannels(): string[] {
  return [EVENTS_CHANNEL];
}
