import { errors } from '../domain/errors.js';
import type { Match, Message } from '../domain/match.js';
import { spectatorMatch, spectatorMessage, type SpectatorMatch, type SpectatorUserSource } from '../domain/spectator-views.js';
import type { Page, PageRequest } from '../domain/page.js';
import type { ActivityCursor } from '../domain/page-positions.js';
import type { MatchRepository } from '../store/match-repository.js';
import type { MessageRepository } from '../store/message-repository.js';
import type { UserRepository } from '../store/user-repository.js';

export type SpectatedMatch = SpectatorMatch & { last_message: Message | null; synthetic: true };
export type SpectatedMessage = Message & { synthetic: true };

/**
 * What the public spectator sees: the agent pool's current matches and their conversations, in the
 * spectator views (names, themes, interests, messages; never an e-mail or a birthdate). Every read here
 * names the agent pool: nothing of a member can be reached from this service.
 */
export class SpectatorService {
  constructor(
    private readonly matches: MatchRepository,
    private readonly messages: MessageRepository,
    private readonly users: UserRepository,
  ) {}

  /** Current agent matches, latest activity first. */
  async listMatches(page: PageRequest<ActivityCursor>): Promise<Page<SpectatedMatch, ActivityCursor>> {
    const { items, next } = await this.matches.listPool('agent', page);
    const ids = [...new Set(items.flatMap((match) => match.userIds))];
    const users = new Map((await this.users.findMany('agent', ids)).flatMap((user) => (user ? [[user.id, user] as const] : [])));
    return { items: items.flatMap((match) => this.view(match, users)), next };
  }

  /** The conversation of a current agent match: the newest messages, oldest first in the page. */
  async listMessages(matchId: number, page: PageRequest<number>): Promise<Page<SpectatedMessage, number>> {
    const match = await this.matches.find('agent', matchId);
    if (!match) throw errors.notFound('match');
    const { items, next } = await this.messages.list('agent', matchId, page);
    return { items: items.map((message) => ({ ...spectatorMessage(message), synthetic: true as const })), next };
  }

  private view(match: Match, users: Map<number, SpectatorUserSource>): SpectatedMatch[] {
    const a = users.get(match.userIds[0]);
    const b = users.get(match.userIds[1]);
    if (!a || !b) return [];
    return [
      {
        ...spectatorMatch(match, [a, b]),
        last_message: match.lastMessage ? spectatorMessage(match.lastMessage) : null,
        synthetic: true,
      },
    ];
  }
}
