import type { SuspensionRepository } from '../accounts/index.js';
import type { EventBody, FrameScreen } from '../events/index.js';
import type { MatchRepository } from '../matches/index.js';

type SpectatorData = { match?: { users?: Array<{ id?: unknown }> }; message?: { match_id?: unknown } };

/**
 * The spectator stream's frames less those showing a suspended agent: a match it is in, or a message of
 * such a match. Entries stay in the stream (a lift shows them again); a page costs one HMGET per message's
 * match and one per index partition of the accounts named, however long the stream.
 */
export class SpectatorScreen implements FrameScreen {
  constructor(
    private readonly matches: Pick<MatchRepository, 'usersOf'>,
    private readonly suspensions: Pick<SuspensionRepository, 'suspendedAmong'>,
  ) {}

  async screen(bodies: EventBody[]): Promise<EventBody[]> {
    const parsed = bodies.map(({ body }) => dataOf(body));
    const matchIds = [...new Set(parsed.flatMap((data) => (typeof data?.message?.match_id === 'number' ? [data.message.match_id] : [])))];
    const usersOfMatch = await this.matches.usersOf('agent', matchIds);
    const shown = parsed.map((data) => usersShown(data, usersOfMatch));
    const suspended = await this.suspensions.suspendedAmong('agent', shown.flat());
    if (suspended.size === 0) return bodies;
    return bodies.filter((_, i) => !shown[i]!.some((id) => suspended.has(id)));
  }
}

function usersShown(data: SpectatorData | undefined, usersOfMatch: Map<number, [number, number]>): number[] {
  if (!data) return [];
  if (data.match?.users) return data.match.users.flatMap((user) => (typeof user.id === 'number' ? [user.id] : []));
  const matchId = data.message?.match_id;
  return typeof matchId === 'number' ? (usersOfMatch.get(matchId) ?? []) : [];
}

function dataOf(body: string): SpectatorData | undefined {
  try {
    const frame = JSON.parse(body) as { data?: SpectatorData };
    return typeof frame.data === 'object' && frame.data !== null ? frame.data : undefined;
  } catch {
    return undefined;
  }
}
