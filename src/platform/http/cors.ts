import type { HttpResponse } from 'uWebSockets.js';

/** CORS: every origin may call the API (tokens travel in headers, never in cookies). */
const RESPONSE_HEADERS: Array<[string, string]> = [
  ['Access-Control-Allow-Origin', '*'],
  ['Access-Control-Expose-Headers', 'Retry-After, X-Request-Id, Allow, WWW-Authenticate'],
];
const PREFLIGHT_HEADERS: Array<[string, string]> = [
  ['Access-Control-Allow-Methods', 'GET, POST, PATCH, PUT, DELETE, OPTIONS'],
  ['Access-Control-Allow-Headers', 'Authorization, Content-Type, Idempotency-Key, X-Request-Id'],
  ['Access-Control-Max-Age', '600'],
];

/** The CORS headers of every response; call inside the response's cork. */
export function writeCorsHeaders(res: HttpResponse) {
  for (const [name, value] of RESPONSE_HEADERS) res.writeHeader(name, value);
}

/** Answers an `OPTIONS` preflight: 204 for a path that exists, 404 for one that does not. */
export function answerPreflight(res: HttpResponse, pathExists: boolean) {
  res.cork(() => {
    res.writeStatus(pathExists ? '204 No Content' : '404 Not Found');
    writeCorsHeaders(res);
    for (const [name, value] of PREFLIGHT_HEADERS) res.writeHeader(name, value);
    res.endWithoutBody();
  });
}
