import type { WebSocket } from 'uWebSockets.js';
import type { TokenPrincipal } from '../../../platform/core/principal.js';
import type { ReplayStream } from '../event-replay.js';

/**
 * What a socket follows: its uWS topic, the stream it replays from, where to start, how far back a replay
 * may reach, and (for a user's socket) the token it was opened with.
 */
export type Target = { topic: string; stream: ReplayStream; since?: string; replayLimit?: number; claims?: TokenPrincipal };

export type SocketData = Target & {
  ip: string;
  /** uWS has closed the socket: it must not be touched any more. */
  closed: boolean;
  /** We have asked uWS to close it. */
  closing: boolean;
  /** Still replaying: its unsent bytes are the replay's to pace, not the sweeper's to judge. */
  replaying: boolean;
  /** The lease this socket holds among its account's open sockets across processes (see SocketLeases). */
  lease?: string;
  /** Called when the socket drains (or closes) while a replay waits for room. */
  onDrain?: () => void;
  /** Since when (ms) the socket has held unsent bytes without uWS writing any of them out; unset when it has none or has just drained. */
  stalledSince?: number;
  /** When (ms) a ping went out behind a replay's frames, until the client's pong shows it has read them. */
  pingedAt?: number;
};

export type Socket = WebSocket<SocketData>;
