import { errors } from '../../platform/core/errors.js';

/** An event id is a Redis stream entry id: "<ms>-<sequence>". */
const EVENT_ID_RE = /^(\d{1,15})-(\d{1,19})$/;

/**
 * The `since` query parameter: an event id this service gave out, or "0" for everything still kept.
 * Undefined when absent (live only); 400 naming `since` when malformed.
 */
export function parseSince(raw: string | null): string | undefined {
  if (raw === null) return undefined;
  if (raw === '0') return '0-0';
  if (!EVENT_ID_RE.test(raw)) {
    throw errors.invalidField('since', 'must be the id of the last event you received (like "1718000000000-0"), or 0 for every kept event');
  }
  return raw;
}

/** Orders two event ids (negative when `a` is older than `b`). */
export function compareEventIds(a: string, b: string): number {
  const [aMs, aSeq] = split(a);
  const [bMs, bSeq] = split(b);
  if (aMs !== bMs) return aMs < bMs ? -1 : 1;
  return aSeq === bSeq ? 0 : aSeq < bSeq ? -1 : 1;
}

function split(id: string): [bigint, bigint] {
  const dash = id.indexOf('-');
  return dash < 0 ? [BigInt(id), 0n] : [BigInt(id.slice(0, dash)), BigInt(id.slice(dash + 1))];
}
