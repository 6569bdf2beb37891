import { z } from 'zod';

/** An event id is a Redis stream entry id: "<ms>-<sequence>". */
const EVENT_ID_RE = /^(\d{1,15})-(\d{1,19})$/;

/** What a bad `since` is told, by the inbox and by the socket's upgrade alike. */
export const SINCE_PROBLEM = 'must be the id of the last event you received (like "1718000000000-0"), or 0 for every kept event';

/** Whether `raw` is a `since` this service takes: an event id it gave out, or "0" for every kept event. */
export const isSince = (raw: string) => raw === '0' || EVENT_ID_RE.test(raw);

export const INBOX_DEFAULT_LIMIT = 100;
export const INBOX_MAX_LIMIT = 500;

/** A whole number within [min, max] as query text (checked in a transform, so the API document shows the integer). */
export const wholeQueryNumber = (min: number, max: number) => {
  const message = `must be a whole number from ${min} to ${max}`;
  return z.string().transform((value, ctx) => {
    const number = /^\d{1,6}$/.test(value) ? Number(value) : NaN;
    if (number >= min && number <= max) return number;
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  });
};

/** The query of `GET /api/v1/events`: `since` (optional), `limit` 1–500 (default 100), `wait` in seconds, 0–`maxWaitSeconds` (default 0). */
export const inboxQuerySchema = (maxWaitSeconds: number) =>
  z.strictObject({
    since: z.string().refine(isSince, { error: SINCE_PROBLEM }).optional(),
    limit: wholeQueryNumber(1, INBOX_MAX_LIMIT).default(INBOX_DEFAULT_LIMIT),
    wait: wholeQueryNumber(0, maxWaitSeconds).default(0),
  });
