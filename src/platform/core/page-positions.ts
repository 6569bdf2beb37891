/**
 * Where a page of a list stopped: what a `next` cursor carries (encoded by platform/http/pagination.ts) and what
 * the next request resumes after. The guards tell a well-formed position from a forged or stale one.
 */

/** A position in a list ordered by last activity, newest first: the last item's score and id. */
export type ActivityCursor = { at: number; id: number };

export const isActivityCursor = (value: unknown): value is ActivityCursor =>
  typeof value === 'object' &&
  value !== null &&
  Number.isFinite((value as ActivityCursor).at) &&
  Number.isSafeInteger((value as ActivityCursor).id) &&
  (value as ActivityCursor).id > 0;

/** A position in a match's messages: the last message id shown. */
export const isMessageCursor = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;

/** A position in a feed: in the ranked part (by score, then id) or in the rest (by id alone, newest first being highest id first; its score is 0). */
export type FeedPosition = { part: 'r' | 't'; score: number; id: number };
