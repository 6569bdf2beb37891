import type { Refusal } from '../../accounts/index.js';

/** A WebSocket close a client can act on (the reason is at most 123 bytes). */
export type Close = { code: number; reason: string };

/** Close codes and reasons a client can act on. */
export const CLOSE = {
  tooSlow: { code: 4008, reason: 'too slow; reconnect with since=<last id>' },
  /** The same code as tooSlow (the same thing to do): frames waited and the client took none of them for a while. */
  notReading: { code: 4008, reason: 'not reading; reconnect with since=<last id>' },
  tokenExpired: { code: 4001, reason: 'token expired; log in again, then reconnect with since=<last id>' },
  tokenRevoked: { code: 4003, reason: 'token revoked; log in again' },
  /** As HTTP's 403 account_suspended: no token of the account works until the operators lift it. */
  accountSuspended: { code: 4403, reason: 'account suspended by the operators; do not reconnect' },
  /** The account left (or was erased): no token of it works again. */
  accountGone: { code: 4410, reason: 'account no longer exists; register or log in again' },
  shuttingDown: { code: 1001, reason: 'server shutting down; reconnect with since=<last id>' },
  relayInterrupted: { code: 1012, reason: 'live relay was interrupted; reconnect with since=<last id>' },
  replayFailed: { code: 1011, reason: 'could not replay; reconnect with since=<last id>' },
} as const satisfies Record<string, Close>;

/** The close of a live socket whose token no longer holds, by why. */
export const REFUSAL_CLOSE: Record<Refusal, Close> = {
  suspended: CLOSE.accountSuspended,
  gone: CLOSE.accountGone,
  revoked: CLOSE.tokenRevoked,
  expired: CLOSE.tokenExpired,
};
