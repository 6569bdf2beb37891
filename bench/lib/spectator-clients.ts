/**
 * The receive-only clients a socket fleet holds, one per spectator socket:
 * - `websocket`: the service's spectator stream over the lean client (every data message is an event);
 * - `engine.io`: a Socket.IO server over the Engine.IO v4 WebSocket transport, spoken directly on the lean
 *   client (open packet `0{…}` → `40`, `40{…}` = connected, ping `2` → pong `3`, events are `42[…]`);
 * - `ws`: the service's spectator stream over the `ws` library (the heavier client, to compare with).
 */
import WebSocket from 'ws';
import { LeanWebSocket } from './lean-websocket.js';

export type SpectatorProtocol = 'websocket' | 'engine.io';
export type SpectatorClientKind = 'lean' | 'ws';

export type SpectatorClient = { readonly open: boolean; terminate(): void };

export type SpectatorClientOptions = {
  localAddress?: string;
  timeoutMs: number;
  /** Called for each event frame as it is read; `data` is only valid during the call. */
  onEvent: (data: Buffer) => void;
  onClose: (code: number) => void;
};

export function openSpectatorClient(
  url: string,
  protocol: SpectatorProtocol,
  kind: SpectatorClientKind,
  options: SpectatorClientOptions,
): Promise<SpectatorClient> {
  if (protocol === 'engine.io') {
    if (kind !== 'lean') return Promise.reject(new Error('the Engine.IO protocol is spoken by the lean client only'));
    return openEngineIo(url, options);
  }
  return kind === 'ws' ? openWs(url, options) : LeanWebSocket.connect(url, { ...options, onMessage: options.onEvent });
}

const CHAR = { open: 0x30, close: 0x31, ping: 0x32, message: 0x34, connect: 0x30, disconnect: 0x31, event: 0x32 } as const;

/** Resolves once the default namespace is joined (`40{…}` received). */
function openEngineIo(url: string, options: SpectatorClientOptions): Promise<SpectatorClient> {
  return new Promise((resolve, reject) => {
    let joined = false;
    const timer = setTimeout(() => {
      pending.then(
        (socket) => socket.terminate(),
        () => {},
      );
      reject(new Error(`no Socket.IO connect from ${url} within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    const pending = LeanWebSocket.connect(url, {
      localAddress: options.localAddress,
      timeoutMs: options.timeoutMs,
      onClose: (code) => {
        if (joined) options.onClose(code);
        else {
          clearTimeout(timer);
          reject(new Error(`the Socket.IO connection closed (${code}) before it joined`));
        }
      },
      onMessage: (data, socket) => {
        const type = data[0];
        if (type === CHAR.message) {
          const packet = data[1];
          if (packet === CHAR.event) options.onEvent(data);
          else if (packet === CHAR.connect && !joined) {
            joined = true;
            clearTimeout(timer);
            resolve(socket);
          } else if (packet === CHAR.disconnect) socket.terminate();
        } else if (type === CHAR.ping) socket.sendText('3');
        else if (type === CHAR.open) socket.sendText('40');
        else if (type === CHAR.close) socket.terminate();
      },
    });
    pending.catch((error: unknown) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

function openWs(url: string, options: SpectatorClientOptions): Promise<SpectatorClient> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false, localAddress: options.localAddress, handshakeTimeout: options.timeoutMs });
    socket.on('message', options.onEvent);
    let opened = false;
    socket.once('open', () => {
      opened = true;
      resolve({
        get open() {
          return socket.readyState === WebSocket.OPEN;
        },
        terminate: () => socket.terminate(),
      });
    });
    socket.once('error', reject);
    socket.on('close', (code) => opened && options.onClose(code));
  });
}
