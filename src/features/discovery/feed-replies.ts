import type { FeedPosition } from '../../platform/core/page-positions.js';
import { optionalReplyText, replyList, replyText } from '../../platform/redis/raw-reply.js';

/** What lua/read_feed-4.lua answers: `rankedSize` is how many entries the feed's ranked part still holds. */
export type FeedReply = { rankedSize: number; positions: FeedPosition[]; likedBy: number[] };
/** An owner's feed and the candidate's score there (or the feed's floor, as the scripts answer it). */
export type SpreadEntry = { owner: number; score: number };
/** What lua/read_feed_cards-4.lua read of each id, as stored (null when absent). */
export type StoredFeedCard = { card: string | null; profile: string | null; taste: string | null; active: string | null };

/**
 * lua/read_feed-4.lua: the ranked part's size, how many ranked entries follow (id, score), which of the
 * returned ids liked the account, then the entries and the rest's ids.
 */
export function decodeReadFeed(raw: unknown): FeedReply {
  const [rankedSize, rankedCount, liked, ...flat] = replyList(raw);
  const positions: FeedPosition[] = [];
  const rankedEnd = 2 * Number(rankedCount);
  for (let i = 0; i + 1 < rankedEnd; i += 2) positions.push({ part: 'r', id: Number(flat[i]), score: Number(flat[i + 1]) });
  for (let i = rankedEnd; i < flat.length; i++) positions.push({ part: 't', id: Number(flat[i]), score: 0 });
  return { rankedSize: Number(rankedSize), positions, likedBy: replyList(liked).map(Number) };
}

/** lua/read_feed_cards-4.lua: when the reader's feed was ranked (ms, undefined when never or not asked), then four values per id. */
export function decodeReadFeedCards(raw: unknown): { rankedAt?: number; cards: StoredFeedCard[] } {
  const [rankedAt, ...flat] = replyList(raw);
  const cards: StoredFeedCard[] = [];
  const value = (v: unknown) => optionalReplyText(v) ?? null;
  for (let i = 0; i + 3 < flat.length; i += 4)
    cards.push({ card: value(flat[i]), profile: value(flat[i + 1]), taste: value(flat[i + 2]), active: value(flat[i + 3]) });
  return { ...(rankedAt === null || rankedAt === undefined ? {} : { rankedAt: Number(rankedAt) }), cards };
}

/** lua/rank_feed-4.lua: the feed's size and its floor. */
export function decodeRankFeed(raw: unknown) {
  const [size, floor] = replyList(raw);
  return { size: Number(size), floor: Number(floor) };
}

/** lua/dropped_targets-2+.lua: the cursor of the next page ('0' when done), then owner and score pairs. */
export function decodeDroppedTargets(raw: unknown): { cursor: string; targets: SpreadEntry[] } {
  const [cursor, ...flat] = replyList(raw);
  return { cursor: replyText(cursor) || '0', targets: ownerScores(flat) };
}

/** lua/spread_into_feeds-4+.lua: how many feeds changed, then each changed feed's owner and floor. */
export function decodeSpreadIntoFeeds(raw: unknown): { changed: number; floors: SpreadEntry[] } {
  const [changed, ...flat] = replyList(raw);
  return { changed: Number(changed), floors: ownerScores(flat) };
}

/** lua/expire_passes-4.lua: the passes expired, the swipes standing, the accounts a block keeps from the reader. */
export function decodeExpirePasses(raw: unknown): { expired: number; swiped: number; hidden: number } {
  const [expired, swiped, hidden] = replyList(raw);
  return { expired: Number(expired), swiped: Number(swiped), hidden: Number(hidden) };
}

/** {owner, score} pairs from a flat reply [owner_1, score_1, owner_2, ...]. */
function ownerScores(flat: readonly unknown[]): SpreadEntry[] {
  const out: SpreadEntry[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push({ owner: Number(flat[i]), score: Number(flat[i + 1]) });
  return out;
}
