import type { Message } from '../matches/index.js';
import type { ProfileSource } from '../accounts/index.js';
import { ageOn } from '../../platform/core/dates.js';

/**
 * The public, synthetic views of agent matches shown to spectators: names, themes, interests and
 * messages only — never an e-mail, a birthdate or anything else of an account.
 */
export type SpectatorUser = { id: number; display_name: string; theme_id: number; interests: string[] };

export type SpectatorMatch = {
  id: number;
  created_at: string;
  shared_interests: string[];
  users: [SpectatorUser, SpectatorUser];
};

/** What the spectator view needs of an account. */
export type SpectatorUserSource = Pick<ProfileSource, 'id' | 'displayName' | 'themeId' | 'interests'>;

export const spectatorUser = (user: SpectatorUserSource): SpectatorUser => ({
  id: user.id,
  display_name: user.displayName,
  theme_id: user.themeId,
  interests: user.interests,
});

export function spectatorMatch(
  match: { id: number; createdAt: string; sharedInterests: string[] },
  users: [SpectatorUserSource, SpectatorUserSource],
): SpectatorMatch {
  return {
    id: match.id,
    created_at: match.createdAt,
    shared_interests: match.sharedInterests,
    users: [spectatorUser(users[0]), spectatorUser(users[1])],
  };
}

export const spectatorMessage = (message: Message): Message => ({
  id: message.id,
  match_id: message.match_id,
  sender_id: message.sender_id,
  body: message.body,
  created_at: message.created_at,
  shared_interests_mentioned: message.shared_interests_mentioned,
});

/** Payloads of the spectator stream's events. */
export const spectatorMatchCreated = (match: SpectatorMatch) => ({ synthetic: true as const, match });
export const spectatorMessageCreated = (message: Message) => ({ synthetic: true as const, message: spectatorMessage(message) });
export const spectatorMatchEnded = (matchId: number, endedAt: string) => ({ synthetic: true as const, match_id: matchId, ended_at: endedAt });

/** An agent's public card on the spectator page: never an e-mail or a birthdate (the age at most). */
export type SpectatorAgentCard = SpectatorUser & { bio: string; city: string; age: number };

export const spectatorAgentCard = (user: ProfileSource, now = new Date()): SpectatorAgentCard => ({
  ...spectatorUser(user),
  bio: user.bio,
  city: user.city,
  age: ageOn(user.birthdate, now),
});
