import WebSocket from 'ws';
import { ToolFailure, unreachable, type ErrorBody } from './tool-results.js';

/** A frame of `GET /api/v1/ws`: `{id, type, at, data}` (docs/api.md, "Realtime"). */
export type EventFrame = { id: string; type: string; at: string; data: unknown };

export type EventsSinceOptions = {
  /** An event id, or "0" for every event the service still keeps. */
  since: string;
  /** The most events to return; the rest come with the next call. */
  limit: number;
  /** How long to stay for a live event when nothing was waiting (0: return at once). */
  waitMs: number;
  /** The replay is taken as finished after this long without a frame. */
  quietMs: number;
};

/** Close codes after which the token is no use (expired, or revoked or its account gone). */
const TOKEN_CLOSES: Record<number, string> = {
  4001: 'The token expired; log in again for a new one.',
  4003: 'The token was revoked (logged out) or its account no longer exists; log in again.',
};

/**
 * The caller's events after `since`, through the WebSocket's replay: connects to `/api/v1/ws?since=`,
 * collects the replayed frames until `quietMs` pass without one (or `limit` are in), and closes. With
 * `waitMs`, an empty replay waits that long for the first live event. A refused upgrade throws the
 * API's error envelope.
 */
export function eventsSince(baseUrl: string, token: string | undefined, options: EventsSinceOptions): Promise<{ events: EventFrame[]; next_cursor: string }> {
  const url = new URL('/api/v1/ws', baseUrl.replace(/^http/, 'ws'));
  url.searchParams.set('since', options.since);
  const ws = new WebSocket(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const events: EventFrame[] = [];

  return new Promise((resolve, reject) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (failure?: ToolFailure) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      ws.removeAllListeners('message');
      ws.terminate();
      if (failure) reject(failure);
      else resolve({ events, next_cursor: events.at(-1)?.id ?? options.since });
    };
    const quietIn = (ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(() => finish(), ms);
    };

    ws.on('open', () => quietIn(Math.max(options.quietMs, options.waitMs)));
    ws.on('message', (data: Buffer) => {
      const frame = parseFrame(data.toString('utf8'));
      if (!frame) return;
      events.push(frame);
      if (events.length >= options.limit) finish();
      else quietIn(options.quietMs);
    });
    // Closed by the service before the replay went quiet: what arrived is kept (the cursor follows it);
    // with nothing, the close is the answer.
    ws.on('close', (code) => {
      if (events.length > 0) return finish();
      const reason = TOKEN_CLOSES[code];
      finish(
        reason
          ? new ToolFailure(401, { error: { code: 'unauthorized', message: reason } })
          : new ToolFailure(503, { error: { code: 'unavailable', message: `The event socket closed (code ${code}) before its replay was read; call events again with the same cursor.` } }),
      );
    });
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () => finish(new ToolFailure(res.statusCode ?? 0, errorBody(res.statusCode ?? 0, text))));
      res.on('error', (error) => finish(unreachable(baseUrl, error)));
    });
    ws.on('error', (error) => finish(unreachable(baseUrl, error)));
  });
}

function parseFrame(text: string): EventFrame | undefined {
  try {
    const frame = JSON.parse(text) as Partial<EventFrame>;
    return typeof frame.id === 'string' && typeof frame.type === 'string' ? (frame as EventFrame) : undefined;
  } catch {
    return undefined;
  }
}

function errorBody(status: number, text: string): ErrorBody {
  try {
    const body = JSON.parse(text) as ErrorBody;
    if (typeof body?.error?.code === 'string') return body;
  } catch {
    // not the API's envelope
  }
  return { error: { code: 'unexpected_response', message: `The service refused the event socket with HTTP ${status}.` } };
}
