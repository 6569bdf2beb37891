/**
 * The Socket.IO comparison: a plain Socket.IO server in its own process, default settings but for the
 * WebSocket transport only and no per-message compression (as the service's spectator stream). It does
 * nothing but broadcast. Driven over IPC by the spectator scenario:
 *   (start)                                 → {type: 'ready', port}
 *   {cmd: 'emit', id, event, payload}       → io.emit(event, payload), then {type: 'emitted', id}
 *   {cmd: 'memory'}                         → {type: 'memory', rss}
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';

type Command = { cmd: 'emit'; id: number; event: string; payload: unknown } | { cmd: 'memory' };

const http = createServer();
const io = new Server(http, { transports: ['websocket'], perMessageDeflate: false });

const send = (message: unknown) => process.send?.(message);

process.on('message', (command: Command) => {
  if (command.cmd === 'emit') {
    io.emit(command.event, command.payload);
    send({ type: 'emitted', id: command.id });
  } else if (command.cmd === 'memory') send({ type: 'memory', rss: process.memoryUsage().rss });
});

http.listen(0, '127.0.0.1', () => send({ type: 'ready', port: (http.address() as AddressInfo).port }));

process.on('disconnect', () => process.exit(0));
// If the bench dies without stopping us (SIGKILL), we are re-parented: leave too.
const parent = process.ppid;
setInterval(() => process.ppid !== parent && process.exit(0), 1_000).unref();
process.on('SIGTERM', () => process.exit(0));
