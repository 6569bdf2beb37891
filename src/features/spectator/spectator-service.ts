import { errors } from '../../platform/core/errors.js';
import type { Match, Message } from '../matches/index.js';
import {
  spectatorAgentCard,
  spectatorMatch,
  spectatorMessage,
  type SpectatorAgentCard,
  type SpectatorMatch,
  type SpectatorUserSource,
} from './spectator-views.js';
import type { Page, PageRequest } from '../../platform/core/page.js';
import type { ActivityCursor } from '../../platform/core/page-positions.js';
import type { MatchRepository } from '../matches/index.js';
import type { MessageRepository } from '../matches/index.js';
import type { SpectatorTallyRepository } from './spectator-tally-repository.js';
import type { SuspensionRepository, UserRepository } from '../accounts/index.js';
import { ReadCache } from '../../platform/core/read-cache.js';

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
  tally: SpectatorTallyRepository;
  agentCount: () => Promise<number>;
  /** This process's key among the watcher counts, and its open spectator sockets now. */
  processKey: string;
  watchingHere: () => number;
};

/** The figures as read from Redis and shared for a moment: all but this process's own spectators. */
type SharedStats = Omit<SpectatorStats, 'spectators_watching'> & { watchingElsewhere: number };

/**
 * What the public spectator sees: the agent pool's current matches and their conversations, in the
 * spectator views (names, themes, interests, messages; never an e-mail or a birthdate). Every read here
 * names the agent pool: nothing of a member can be reached from this service. Each read's answer is shared
 * for `cacheMs` by every request of the same read in this process (a failed read is not kept), so a
 * popular page costs the store one read per period.
 */
export class SpectatorService {
  private readonly cache: ReadCache;
  /** The count of open spectator sockets this process last wrote to Redis. */
  private reported?: number;

  constructor(
    private readonly matches: MatchRepository,
    private readonly messages: MessageRepository,
    private readonly users: UserRepository,
    private readonly figures?: SpectatorFigures,
    cacheMs = 0,
    /** A suspended agent's matches, their conversations and its card are not shown (404) until it is lifted. */
    private readonly suspensions?: Pick<SuspensionRepository, 'suspendedAmong'>,
  ) {
    this.cache = new ReadCache(cacheMs);
  }

  /** One current agent match (a deep link to it); 404 once it has ended or when it is not an agent match. */
  getMatch(matchId: number): Promise<SpectatedMatch> {
    return this.cache.get(`match:${matchId}`, () => this.readMatch(matchId));
  }

  /** An agent's public card; 404 for an account that is not an agent. */
  agentCard(userId: number): Promise<SpectatorAgentCard & { synthetic: true }> {
    return this.cache.get(`agent:${userId}`, () => this.readAgentCard(userId));
  }

  /**
   * Today's figures of the agent feed (UTC day), the event rate and the spectators watching now: the other
   * processes' counts as they last reported them, this process's as it is now.
   */
  async stats(): Promise<SpectatorStats> {
    const figures = this.figures;
    if (!figures) throw new Error('spectator figures are not configured');
    await this.reportIfChanged(figures);
    const shared = await this.cache.get('stats', () => this.readStats(figures));
    return {
      agents: shared.agents,
      matches_today: shared.matches_today,
      messages_today: shared.messages_today,
      matches_ended_today: shared.matches_ended_today,
      events_per_minute: shared.events_per_minute,
      spectators_watching: shared.watchingElsewhere + figures.watchingHere(),
      at: shared.at,
      synthetic: true,
    };
  }

  /** Current agent matches, latest activity first. */
  listMatches(page: PageRequest<ActivityCursor>): Promise<Page<SpectatedMatch, ActivityCursor>> {
    return this.cache.get(`matches:${page.limit}:${page.after ? `${page.after.at}:${page.after.id}` : ''}`, () => this.readMatches(page));
  }

  /** The conversation of a current agent match: the newest messages, oldest first in the page. */
  listMessages(matchId: number, page: PageRequest<number>): Promise<Page<SpectatedMessage, number>> {
    return this.cache.get(`messages:${matchId}:${page.limit}:${page.after ?? ''}`, () => this.readMessages(matchId, page));
  }

  /** Writes this process's count of open spectator sockets (every few seconds; see also `stats`). */
  async reportWatchers(now = new Date()): Promise<void> {
    if (!this.figures) return;
    const count = this.figures.watchingHere();
    await this.figures.tally.reportWatchers(this.figures.processKey, count, now.getTime());
    this.reported = count;
  }

  /**
   * Before answering the figures: the other processes read this process's count from Redis, so a changed
   * count is written at once rather than at the next report. An unchanged one writes nothing. A write that
   * fails (Redis full) leaves it to the next report: the figures are answered all the same.
   */
  private async reportIfChanged(figures: SpectatorFigures) {
    if (figures.watchingHere() !== this.reported) await this.reportWatchers().catch(() => undefined);
  }

  private async readMatch(matchId: number): Promise<SpectatedMatch> {
    const match = await this.matches.find('agent', matchId);
    if (!match || (await this.suspendedAmong(match.userIds)).size > 0) throw errors.notFound('match');
    const users = new Map((await this.users.findMany('agent', match.userIds)).flatMap((user) => (user ? [[user.id, user] as const] : [])));
    const [view] = this.view(match, users);
    if (!view) throw errors.notFound('match');
    return view;
  }

  private async readAgentCard(userId: number): Promise<SpectatorAgentCard & { synthetic: true }> {
    const [user, suspended] = await Promise.all([this.users.find('agent', userId), this.suspendedAmong([userId])]);
    if (!user || suspended.size > 0) throw errors.notFound('agent');
    return { ...spectatorAgentCard(user), synthetic: true };
  }

  private async readStats(figures: SpectatorFigures): Promise<SharedStats> {
    const now = new Date();
    const [tallies, agents] = await Promise.all([figures.tally.read(figures.processKey, now.getTime()), figures.agentCount()]);
    return {
      agents,
      matches_today: tallies.today['match.created'] ?? 0,
      messages_today: tallies.today['message.created'] ?? 0,
      matches_ended_today: tallies.today['match.ended'] ?? 0,
      events_per_minute: tallies.eventsPerMinute,
      watchingElsewhere: tallies.watchingElsewhere,
      at: now.toISOString(),
      synthetic: true,
    };
  }

  private async readMatches(page: PageRequest<ActivityCursor>): Promise<Page<SpectatedMatch, ActivityCursor>> {
    const { items, next } = await this.matches.listPool('agent', page);
    const ids = [...new Set(items.flatMap((match) => match.userIds))];
    const [found, suspended] = await Promise.all([this.users.findMany('agent', ids), this.suspendedAmong(ids)]);
    const users = new Map(found.flatMap((user) => (user && !suspended.has(user.id) ? [[user.id, user] as const] : [])));
    return { items: items.flatMap((match) => this.view(match, users)), next };
  }

  private async readMessages(matchId: number, page: PageRequest<number>): Promise<Page<SpectatedMessage, number>> {
    const match = await this.matches.find('agent', matchId);
    if (!match || (await this.suspendedAmong(match.userIds)).size > 0) throw errors.notFound('match');
    const { items, next } = await this.messages.list('agent', matchId, page);
    return { items: items.map((message) => ({ ...spectatorMessage(message), synthetic: true as const })), next };
  }

  private suspendedAmong(ids: readonly number[]): Promise<Set<number>> {
    return this.suspensions ? this.suspensions.suspendedAmong('agent', ids) : Promise.resolve(new Set());
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
