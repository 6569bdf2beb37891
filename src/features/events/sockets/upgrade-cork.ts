import type { HttpResponse, us_socket_context_t } from 'uWebSockets.js';
import type { CorkAnchor } from '../../../platform/http/cork-anchor.js';
import type { SocketData } from './socket-data.js';

/**
 * Completes an upgrade decided after an await, corked inside the anchor's cork (see CorkAnchor for why
 * `res.cork()` alone is not safe here); while the anchor is not open, uncorked (uWS prints a warning) rather
 * than risk it. Inside uWS's own upgrade callback (no await taken) the response is
 * corked already and either way is the same.
 */
export function upgradeAfterAwait(
  res: HttpResponse,
  data: SocketData,
  headers: { key: string; protocol: string; extensions: string },
  context: us_socket_context_t,
  anchor: CorkAnchor,
) {
  const upgrade = () => res.upgrade(data, headers.key, headers.protocol, headers.extensions, context);
  if (!anchor.cork(() => res.cork(upgrade))) upgrade();
}
