import { pino, type Logger } from 'pino';

export type { Logger };

/** A JSON logger on stdout, or on stderr (`fd` 2) for a process whose stdout carries a protocol. */
export function createLogger(level: string, fd: 1 | 2 = 1): Logger {
  const options = { level, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime };
  return fd === 1 ? pino(options) : pino(options, pino.destination(2));
}
