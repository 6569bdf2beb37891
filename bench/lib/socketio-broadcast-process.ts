import type { ChildProcess } from 'node:child_process';
import { nextMessage, processCpuSeconds, spawnTs, stopChild } from './children.js';

const WHAT = 'the Socket.IO broadcast server';

/** The Socket.IO broadcast server (bench/lib/socketio-broadcast-server.ts) in its child process, driven over IPC. */
export class SocketIoBroadcastProcess {
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {
    child.on('message', (message: { type?: string; id?: number }) => {
      if (message?.type !== 'emitted' || message.id === undefined) return;
      this.waiting.get(message.id)?.resolve();
      this.waiting.delete(message.id);
    });
    child.once('exit', (code) => {
      for (const { reject } of this.waiting.values()) reject(new Error(`${WHAT} exited (${code}) during an emit`));
      this.waiting.clear();
    });
  }

  static async start(): Promise<SocketIoBroadcastProcess> {
    const child = spawnTs('bench/lib/socketio-broadcast-server.ts', [], process.env, true);
    child.stdout!.resume();
    child.stderr!.resume();
    const { port } = await nextMessage<{ port: number }>(child, 'ready', 20_000, WHAT);
    return new SocketIoBroadcastProcess(child, port);
  }

  /** The URL of its Engine.IO v4 WebSocket transport. */
  get url() {
    return `ws://127.0.0.1:${this.port}/socket.io/?EIO=4&transport=websocket`;
  }

  /** CPU seconds the server process has used so far (from /proc). */
  get cpuSeconds(): number | undefined {
    return processCpuSeconds(this.child.pid);
  }

  /** Resolves once the server has handed the event to every socket (io.emit returned). */
  emit(event: string, payload: unknown): Promise<void> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (!this.child.connected) return reject(new Error(`${WHAT} is gone`));
      this.waiting.set(id, { resolve, reject });
      this.child.send({ cmd: 'emit', id, event, payload });
    });
  }

  async rssBytes(): Promise<number> {
    this.child.send({ cmd: 'memory' });
    return (await nextMessage<{ rss: number }>(this.child, 'memory', 10_000, WHAT)).rss;
  }

  stop() {
    return stopChild(this.child, 5_000);
  }
}
