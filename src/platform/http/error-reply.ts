import type { HttpResponse } from 'uWebSockets.js';
import { AppError, errors } from '../core/errors.js';
import type { Logger } from '../logger.js';
import { isConnectionError, isStoreFullError, ReplicasBehindError } from '../redis/redis-errors.js';
import type { Reply } from './types.js';

/**
 * Error replies, the same for HTTP requests and WebSocket upgrades: what an error becomes on the wire
 * (status, the `{"error": ...}` envelope, and the headers its hints ask for).
 */

const STATUS_LINE: Record<number, string> = {
  200: '200 OK',
  201: '201 Created',
  204: '204 No Content',
  400: '400 Bad Request',
  401: '401 Unauthorized',
  404: '404 Not Found',
  405: '405 Method Not Allowed',
  409: '409 Conflict',
  410: '410 Gone',
  413: '413 Payload Too Large',
  415: '415 Unsupported Media Type',
  429: '429 Too Many Requests',
  500: '500 Internal Server Error',
  503: '503 Service Unavailable',
  507: '507 Insufficient Storage',
};

/** The status line uWS writes for `status` ("404 Not Found"). */
export function statusLine(status: number): string {
  return STATUS_LINE[status] ?? String(status);
}

/** The headers an error's hints ask for (`Retry-After`, `Allow`, `WWW-Authenticate`); undefined when none. */
export function errorHeaders(error: AppError): Record<string, string> | undefined {
  const { retryAfterSeconds, allow, challenge } = error.hints;
  if (retryAfterSeconds === undefined && allow === undefined && challenge === undefined) return undefined;
  const headers: Record<string, string> = {};
  if (retryAfterSeconds !== undefined) headers['Retry-After'] = String(retryAfterSeconds);
  if (allow !== undefined) headers.Allow = allow.join(', ');
  if (challenge !== undefined) headers['WWW-Authenticate'] = challenge;
  return headers;
}

export function errorReply(error: AppError): Reply {
  return { status: error.status, json: error.toBody(), headers: errorHeaders(error) };
}

/**
 * The catalogued error for anything thrown: an AppError as it is, a lost or stalled store and a write its
 * replicas did not confirm in time as 503, a full store as 507, anything else as 500 (logged with
 * `context`, it is a bug).
 */
export function toAppError(error: unknown, logger: Logger, context: Record<string, unknown>): AppError {
  if (error instanceof AppError) return error;
  if (isConnectionError(error)) {
    logger.warn({ ...context, err: (error as Error).message }, 'store unreachable');
    return errors.unavailable();
  }
  if (error instanceof ReplicasBehindError) {
    logger.warn({ ...context, err: error.message }, 'write not confirmed by replicas in time');
    return errors.notReplicated();
  }
  if (isStoreFullError(error)) {
    logger.warn(context, 'store full: write refused');
    return errors.storageFull();
  }
  logger.error({ ...context, err: error }, 'unhandled error');
  return errors.internal();
}

/** Answers with the error envelope and closes the connection (a refused WebSocket upgrade). */
export function writeErrorAndClose(res: HttpResponse, error: AppError) {
  const headers = errorHeaders(error);
  res.cork(() => {
    res.writeStatus(statusLine(error.status));
    if (headers) for (const name in headers) res.writeHeader(name, headers[name]!);
    res.writeHeader('Content-Type', 'application/json; charset=utf-8');
    res.writeHeader('Cache-Control', 'no-store');
    res.end(JSON.stringify(error.toBody()), true);
  });
}
