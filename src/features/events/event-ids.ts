import { errors } from '../../platform/core/errors.js';
import { isSince, SINCE_PROBLEM } from './inbox-schemas.js';

/** The stream position a valid `since` stands for ("0": before every event). */
export const afterOf = (since: string) => (since === '0' ? '0-0' : since);

/**
 * The `since` query parameter: an event id this service gave out, or "0" for everything still kept.
 * Undefined when absent (live only); 400 naming `since` when malformed.
 */
export function parseSince(raw: string | null): string | undefined {
  if (raw === null) return undefined;
  if (!isSince(raw)) throw errors.invalidField('since', SINCE_PROBLEM);
  return afterOf(raw);
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
