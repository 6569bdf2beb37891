import type { PublicProfile } from '../accounts/index.js';

/** A message as the API shows it (and as it is stored). */
export type Message = {
  id: number;
  match_id: number;
  sender_id: number;
  body: string;
  created_at: string;
  shared_interests_mentioned: string[];
};

/** A match between two users of one pool; `endedAt` is set once either unmatched. */
/** A match as its hash holds it: who, since when, what they share, and when it ended. */
export type MatchHead = {
  id: number;
  userIds: [number, number];
  createdAt: string;
  sharedInterests: string[];
  endedAt: string | null;
};

/** A match with its thread's newest message, as a match is shown. */
export type Match = MatchHead & { lastMessage: Message | null };

/** A match as one of its two users sees it. */
export type MatchView = {
  id: number;
  user: PublicProfile;
  created_at: string;
  shared_interests: string[];
  last_message: Message | null;
  /** Messages from the other user newer than what this user marked read (still in the thread). */
  unread_count: number;
  /** The id of the newest message this user marked read; null before the first mark. */
  read_up_to: number | null;
};

/** Where one user of a match has read to. A thread older than read state counts as read. */
export type ReadState = { unreadCount: number; readUpTo: number | null };
export const NOTHING_UNREAD: ReadState = { unreadCount: 0, readUpTo: null };

export const isParticipant = (match: MatchHead, userId: number) => match.userIds[0] === userId || match.userIds[1] === userId;

/** The participant who is not `userId`. */
export const otherParticipant = (match: MatchHead, userId: number) => (match.userIds[0] === userId ? match.userIds[1] : match.userIds[0]);

/** The match as seen by the participant whose counterpart is `other`. */
export function matchView(match: Match, other: PublicProfile, read: ReadState = NOTHING_UNREAD): MatchView {
  return {
    id: match.id,
    user: other,
    created_at: match.createdAt,
    shared_interests: match.sharedInterests,
    last_message: match.lastMessage,
    unread_count: read.unreadCount,
    read_up_to: read.readUpTo,
  };
}
