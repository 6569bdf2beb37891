/** A WebSocket close a client can act on (the reason is at most 123 bytes). */
export type Close = { code: number; reason: string };

/** Close codes and reasons a client can act on. */
export const CLOSE = {
  tooSlow: { code: 4008, reason: 'too slow; reconnect with since=<last id>' },
  /** The same code as tooSlow (the same thing to do): frames waited and the client took none of them for a while. */
  notReading: { code: 4008, reason: 'not reading; reconnect with since=<last id>' },
  tokenExpired: { code: 4001, reason: 'token expired; log in again, then reconnect with since=<last id>' },
  tokenRevoked: { code: 4003, reason: 'token revoked; log in again' },
  shuttingDown: { code: 1001, reason: 'server shutting down; reconnect with since=<last id>' },
  relayInterrupted: { code: 1012, reason: 'live relay was interrupted; reconnect with since=<last id>' },
  replayFailed: { code: 1011, reason: 'could not replay; reconnect with since=<last id>' },
} as const satisfies Record<string, Close>;
