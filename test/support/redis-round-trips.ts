import { AsyncLocalStorage } from 'node:async_hooks';
import { createRequire } from 'node:module';
import { HttpServer } from '../../src/platform/http/server.js';
import { ScriptConnection } from '../../src/platform/redis/script-connection.js';

/**
 * What one request sent to Redis between its arrival and its answer: the commands, and how many round
 * trips it waited on in sequence. Counted at the client side, on the connections the service really uses
 * (every ioredis command, and the lean script connection of the hot path, one per master on a cluster).
 *
 * A command's depth is one more than the deepest of the request's replies that had come back when it was
 * sent: commands sent together (one tick, or before any of the others' replies) share a depth, a command
 * sent on a reply is one deeper. The request's round trips are its deepest command's depth. No timing is
 * involved: the count follows from what waits on what. What the request leaves for after its answer
 * (taste learning, ranking, spreading), the outbox runner and BullMQ run in other contexts, or after the
 * answer is written, and are not counted.
 */
export type RequestTally = {
  /** The request's commands, as `NAME key` (the first key or argument). */
  commands: string[];
  roundTrips: number;
};

type Tally = RequestTally & { open: boolean; answered: number };

const scope = new AsyncLocalStorage<Tally>();
const tallies: Tally[] = [];
let installed = false;

/** Notes a command sent now; returns what to call when its reply (or error) comes back. */
function sent(name: string): (() => void) | undefined {
  const tally = scope.getStore();
  if (!tally?.open) return undefined;
  const depth = tally.answered + 1;
  tally.commands.push(name);
  if (depth > tally.roundTrips) tally.roundTrips = depth;
  return () => {
    if (depth > tally.answered) tally.answered = depth;
  };
}

const word = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : Buffer.isBuffer(value) ? value.toString() : '');

const describe = (name: string, args: readonly unknown[]) => {
  const upper = name.toUpperCase();
  // EVALSHA <sha> <count> <first key>: name the script call by its first key
  if (upper === 'EVALSHA' || upper === 'EVAL') return `${upper} ${word(args[2])}`;
  return `${upper} ${word(args[0])}`.trim();
};

/** Instruments the clients and the server of this process (once): call before the app starts. */
export function countRedisRoundTrips() {
  if (installed) return;
  installed = true;

  // ioredis: every command is a Command, created where the caller sends it (automatic pipelining and
  // pipelines included), and settled when its reply is read.
  const require = createRequire(import.meta.url);
  const commandModule = require('ioredis/built/Command.js') as {
    default: new (...args: never[]) => { name: string; args: unknown[]; promise: Promise<unknown> };
  };
  const Original = commandModule.default;
  commandModule.default = class CountedCommand extends Original {
    constructor(...args: never[]) {
      super(...args);
      const done = sent(describe(this.name, this.args));
      if (done) this.promise.then(done, done);
    }
  };

  // The hot connection: every call goes through `send` with its waiter.
  type Waiter = { resolve: (value: unknown) => void; reject: (error: Error) => void };
  const lean = ScriptConnection.prototype as unknown as { send: (this: unknown, waiter: Waiter, command: string) => void };
  const send = lean.send;
  lean.send = function (this: unknown, waiter: Waiter, command: string) {
    const words = command.split('\r\n').filter((_, i) => i % 2 === 0 && i > 0);
    const done = sent(describe(words[0] ?? '', words.slice(1)));
    if (!done) return send.call(this, waiter, command);
    send.call(
      this,
      {
        ...waiter,
        resolve: (value) => {
          done();
          waiter.resolve(value);
        },
        reject: (error) => {
          done();
          waiter.reject(error);
        },
      },
      command,
    );
  };

  // The server: each request runs in a tally of its own, closed when its answer is written.
  const server = HttpServer.prototype as unknown as {
    respond: (this: unknown, ...args: unknown[]) => Promise<void>;
    write: (this: unknown, ...args: unknown[]) => void;
  };
  const respond = server.respond;
  server.respond = function (this: unknown, ...args: unknown[]) {
    const tally: Tally = { commands: [], roundTrips: 0, open: true, answered: 0 };
    tallies.push(tally);
    return scope.run(tally, () => respond.apply(this, args));
  };
  const write = server.write;
  server.write = function (this: unknown, ...args: unknown[]) {
    const tally = scope.getStore();
    if (tally) tally.open = false;
    write.apply(this, args);
  };
}

/** The tally of the one request `act` makes (it must make exactly one). */
export async function tallyOf<T>(act: () => Promise<T>): Promise<{ result: T; tally: RequestTally }> {
  tallies.length = 0;
  const result = await act();
  if (tallies.length !== 1) throw new Error(`expected one request, saw ${tallies.length}`);
  const [{ commands, roundTrips }] = tallies as [Tally];
  return { result, tally: { commands: [...commands], roundTrips } };
}
