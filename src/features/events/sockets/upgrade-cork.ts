import type { HttpResponse, us_socket_context_t } from 'uWebSockets.js';
import type { Socket, SocketData } from './socket-data.js';

/**
 * Completes an upgrade decided after an await. In this uWS version `res.cork()` called outside uWS's own
 * callbacks can close the socket it has just upgraded (it reads the HTTP response's state from memory that
 * has become the WebSocket's: uNetworking/uWebSockets#1929, seen here as a 1006 right after open). It skips
 * that check when another socket holds the cork, so an open socket (`anchor`) holds it. Without one, the
 * upgrade goes uncorked (uWS prints a warning) rather than risk it. Inside uWS's own upgrade callback (no
 * await taken) the response is corked already and either way is the same.
 */
export function upgradeAfterAwait(
  res: HttpResponse,
  data: SocketData,
  headers: { key: string; protocol: string; extensions: string },
  context: us_socket_context_t,
  anchor: Socket | undefined,
) {
  const upgrade = () => res.upgrade(data, headers.key, headers.protocol, headers.extensions, context);
  if (anchor) anchor.cork(() => res.cork(upgrade));
  else upgrade();
}
