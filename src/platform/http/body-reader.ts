import type { HttpResponse } from 'uWebSockets.js';
import { errors } from '../core/errors.js';
import { MAX_BODY_BYTES } from './request-body.js';

/** Rejection of a body read whose client went away: nothing was done and nobody is there to answer. */
export const BODY_ABORTED = new Error('the client went away while sending the body');

/** What the reader needs of a request: its headers, and a hook for the client going away. */
export type BodySource = {
  headers: Record<string, string>;
  aborted: boolean;
  /** Set by the reader; the server calls it once if the client goes away. */
  onAbort?: () => void;
};

/**
 * Reads the whole body, copying each chunk (uWS reuses its buffer), refusing past MAX_BODY_BYTES.
 * Rejects with BODY_ABORTED as soon as the client goes away: uWS sends no more data then.
 * Must be called before the request handler's first await: uWS drops body data that arrives before
 * `onData` is set.
 */
export function readBody(res: HttpResponse, request: BodySource, maxBytes = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > maxBytes) return Promise.reject(errors.payloadTooLarge(maxBytes));
  if (request.aborted) return Promise.reject(BODY_ABORTED);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    request.onAbort = () => {
      if (done) return;
      done = true;
      reject(BODY_ABORTED);
    };
    res.onData((chunk, isLast) => {
      if (done) return;
      size += chunk.byteLength;
      if (size > maxBytes) {
        done = true;
        return reject(errors.payloadTooLarge(maxBytes));
      }
      chunks.push(Buffer.from(chunk.slice(0)));
      if (isLast) {
        done = true;
        resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
      }
    });
  });
}

/** Whether the request announces a body (a length above 0, or a chunked one). */
export function hasBody(headers: Record<string, string>): boolean {
  return Number(headers['content-length'] ?? 0) > 0 || headers['transfer-encoding'] !== undefined;
}
