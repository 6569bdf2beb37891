import { EventEmitter } from 'node:events';
import { connect, type Socket } from 'node:net';
import { RespReader } from '../../src/platform/redis/resp.js';

const ESCAPES: Record<string, number> = { n: 10, r: 13, t: 9, a: 7, b: 8, '"': 34, '\\': 92 };

/**
 * One argument as MONITOR shows it between quotes (`\n`, `\"`, `\xhh` for any byte outside printable ASCII),
 * back to its text: script bodies sent with EVAL have newlines and quotes, so their SHA matches only after this.
 */
function unescape(shown: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < shown.length; i++) {
    const char = shown[i]!;
    if (char !== '\\' || i + 1 >= shown.length) {
      bytes.push(...Buffer.from(char));
      continue;
    }
    const next = shown[++i]!;
    if (next === 'x') {
      bytes.push(parseInt(shown.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(ESCAPES[next] ?? next.charCodeAt(0));
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * A MONITOR connection of its own, read with the project's RESP reader: emits `monitor` (time, args, source)
 * for every command Redis runs, in the order it runs them; `source` is `lua` for a script's own calls. ioredis's
 * monitor mode may take the first lines for replies to its MONITOR under load ("Command queue state error").
 */
export class RedisMonitor extends EventEmitter {
  private constructor(private readonly socket: Socket) {
    super();
  }

  static open(url: string): Promise<RedisMonitor> {
    const { hostname, port } = new URL(url);
    const socket = connect({ host: hostname, port: Number(port) || 6379 });
    const monitor = new RedisMonitor(socket);
    const reader = new RespReader();
    return new Promise((resolve, reject) => {
      let started = false;
      socket.once('error', reject);
      socket.once('connect', () => socket.write('MONITOR\r\n'));
      socket.on('data', (chunk: Buffer) => {
        reader.feed(chunk);
        for (let reply = reader.next(); reply !== RespReader.INCOMPLETE; reply = reader.next()) {
          if (!started) {
            started = true;
            resolve(monitor);
            continue;
          }
          monitor.line(String(reply));
        }
      });
    });
  }

  disconnect() {
    this.socket.destroy();
  }

  /** `1795889880.051122 [0 127.0.0.1:42490] "hdel" "key" "field"`; `[0 lua]` for a script's calls. */
  private line(text: string) {
    const head = /^(\S+) \[\d+ ([^\]]+)\] /.exec(text);
    if (!head) return;
    const args = [...text.slice(head[0].length).matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((match) => unescape(match[1]!));
    this.emit('monitor', head[1], args, head[2]);
  }
}
