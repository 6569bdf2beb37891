import { errors } from '../domain/errors.js';
import type { Match, Message } from '../domain/match.js';
import { spectatorAgentCard, spectatorMatch, spectatorMessage, type SpectatorAgentCard, type SpectatorMatch, type SpectatorUserSource } from '../domain/spectator-views.js';
import type { Page, PageRequest } from '../domain/page.js';
import type { ActivityCursor } from '../domain/page-positions.js';
import type { MatchRepository } from '../store/match-repository.js';
import type { MessageRepository } from '../store/message-repository.js';
import type { SpectatorTally } from '../store/spectator-tally.js';
import type { UserRepository } from '../store/user-repository.js';

export type SpectatedMatch = SpectatorMatch & { last_message: Message | null; synthetic: true };
export type SpectatedMessage = Message & { synthetic: true };

export type SpectatorStats = {
  agents: number;
  matches_today: number;
  messages_today: number;
  matches_ended_today: number;
  events_per_minute: number;
  spectators_watching: number;
  at: string;
  synthetic: true;
};

/** Where the figures come from: the spectator tallies and the size of the agent pool. */
export type SpectatorFigures = {
  tally: SpectatorTally;
  agentCount: () => Promise<number>;
  /** This process's key among the watcher counts, and its open spectator sockets now. */
  processKey: string;
  watchingHere: () => number;
};

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
    private readonly figures?: SpectatorFigures,
  ) {}

  /** One current agent match (a deep link to it); 404 once it has ended or when it is not an agent match. */
  async getMatch(matchId: number): Promise<SpectatedMatch> {
    const match = await this.matches.find('agent', matchId);
    if (!match) throw errors.notFound('match');
    const users = new Map((await this.users.findMany('agent', match.userIds)).flatMap((user) => (user ? [[user.id, user] as const] : [])));
    const [view] = this.view(match, users);
    if (!view) throw errors.notFound('match');
    return view;
  }

  /** An agent's public card; 404 for an account that is not an agent. */
  async agentCard(userId: number): Promise<SpectatorAgentCard & { synthetic: true }> {
    const user = await this.users.find('agent', userId);
    if (!user) throw errors.notFound('agent');
    return { ...spectatorAgentCard(user), synthetic: true };
  }

  /** Today's figures of the agent feed (UTC day), the event rate and the spectators watching now. */
  async stats(now = new Date()): Promise<SpectatorStats> {
    if (!this.figures) throw new Error('spectator figures are not configured');
    await this.reportWatchers(now);
    const [tallies, agents] = await Promise.all([this.figures.tally.read(now.getTime()), this.figures.agentCount()]);
    return {
      agents,
      matches_today: tallies.today['match.created'] ?? 0,
      messages_today: tallies.today['message.created'] ?? 0,
      matches_ended_today: tallies.today['match.ended'] ?? 0,
      events_per_minute: tallies.eventsPerMinute,
      spectators_watching: tallies.watching,
      at: now.toISOString(),
      synthetic: true,
    };
  }

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

  /** Writes this process's count of open spectator sockets (every few seconds, and before each read of the figures). */
  async reportWatchers(now = new Date()): Promise<void> {
    if (this.figures) await this.figures.tally.reportWatchers(this.figures.processKey, this.figures.watchingHere(), now.getTime());
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
