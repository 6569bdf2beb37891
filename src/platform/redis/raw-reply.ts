/** Readers of a script's raw reply (see Script), for the decoders. */

/** A table reply's entries, [] for anything else. */
export const replyList = (raw: unknown): unknown[] => (Array.isArray(raw) ? raw : []);

/** A string reply (a number as its digits), '' for anything else. */
export const replyText = (raw: unknown): string => (typeof raw === 'string' ? raw : typeof raw === 'number' ? String(raw) : '');

/** A string reply, undefined for a nil (a Lua false). */
export const optionalReplyText = (raw: unknown): string | undefined => (raw === null || raw === undefined ? undefined : replyText(raw));

/** Whether the script answered 1 (its success, for the scripts that answer 1 or 0). */
export const replyIsOne = (raw: unknown): boolean => raw === 1;
