/**
 * What a message costs Redis, and what unmatching a long thread costs it. Starts the service in this
 * process on a private redis-server (no persistence), then:
 *
 * 1. Bytes per message, for a 120-character body and an 8,000-byte one (2,000 four-byte emoji): `--messages`
 *    of each over `--matches` matches, sent through the message service (its scripts and follow-up steps, no
 *    HTTP), `used_memory` before and after. "At rest" leaves out the follow-up step marks (`…:applied`),
 *    which lapse `EVENT_STEP_MARK_SECONDS` after their write; "with marks" counts them too.
 * 2. The longest Redis call while a thread of `--long` messages is unmatched: the slow log keeps every call
 *    over 0.1 ms from the unmatch's first command to its last follow-up step.
 *
 *   npx tsx bench/message-memory.ts [--messages 2000] [--matches 100] [--long 100000] [--json]
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { keys } from '../src/platform/redis/keys.js';
import { startPrivateRedis } from './lib/private-redis.js';
import { scanNode } from '../src/platform/redis/scan-keys.js';
import { startBenchApp } from './lib/bench-app.js';

export type MessageMemoryResult = {
  bytes_per_message: Array<{ body: string; body_bytes: number; messages: number; at_rest: number; with_marks: number; thread_share: number }>;
  long_unmatch: { messages: number; worst_call_ms: number; worst_call: string; calls_over_1ms: number; unmatch_answered_ms: number };
};

const BODIES = [
  { name: '120 characters', text: 'm'.repeat(120) },
  { name: '2,000 emoji (8,000 bytes)', text: '🦊'.repeat(2_000) },
];

export async function runMessageMemory(opts: { messages: number; matches: number; long: number; log?: (line: string) => void }): Promise<MessageMemoryResult> {
  const { messages, matches, long, log = () => {} } = opts;
  const redis = await startPrivateRedis('message-memory');
  const app = await startBenchApp(redis.topology, { THREAD_MAX_MESSAGES: Math.max(long, 10) });
  const probe = new Redis(redis.url);
  const usedMemory = async () => Number(/used_memory:(\d+)/.exec(await probe.info('memory'))![1]);
  const markBytes = async () => {
    let sum = 0;
    for (const key of await scanNode(probe, 'am:*:applied')) sum += (await probe.memory('USAGE', key)) ?? 0;
    return sum;
  };
  let seq = 0;
  const pair = async () => {
    const [a, b] = await Promise.all(
      [0, 1].map(async () => {
        const n = ++seq;
        const user = await app.users.create({
          pool: 'agent',
          email: `message-memory-${n}@example.com`,
          passwordHash: 'none',
          displayName: `Talker ${n}`,
          birthdate: '1990-01-01',
          gender: 'other',
          bio: '',
          interests: ['chess'],
          city: '',
          state: '',
          themeId: 1,
        });
        return user!.id;
      }),
    );
    await app.swipeService.swipe({ pool: 'agent', userId: a! }, b!, 'like');
    const matched = await app.swipeService.swipe({ pool: 'agent', userId: b! }, a!, 'like');
    return { a: a!, b: b!, matchId: matched.match!.id };
  };
  const send = (talk: { a: number; b: number; matchId: number }, i: number, body: string) =>
    app.messageService.send({ pool: 'agent', userId: i % 2 ? talk.b : talk.a }, talk.matchId, body);

  try {
    const bytes: MessageMemoryResult['bytes_per_message'] = [];
    for (const body of BODIES) {
      const talks: Array<{ a: number; b: number; matchId: number }> = [];
      for (let i = 0; i < matches; i++) talks.push(await pair());
      await new Promise((r) => setTimeout(r, 500));
      const before = await usedMemory();
      const marksBefore = await markBytes();
      log(`${messages} messages of ${body.name} over ${matches} matches ...`);
      for (let i = 0; i < messages; i += 50) {
        await Promise.all(Array.from({ length: Math.min(50, messages - i) }, (_, j) => send(talks[(i + j) % matches]!, i + j, body.text)));
      }
      await new Promise((r) => setTimeout(r, 500));
      const after = await usedMemory();
      const marks = (await markBytes()) - marksBefore;
      let thread = 0;
      for (const talk of talks) thread += (await probe.memory('USAGE', keys.thread('agent', talk.matchId), 'SAMPLES', '0')) ?? 0;
      bytes.push({
        body: body.name,
        body_bytes: Buffer.byteLength(body.text),
        messages,
        at_rest: Math.round((after - before - marks) / messages),
        with_marks: Math.round((after - before) / messages),
        thread_share: Math.round(thread / messages),
      });
    }

    log(`a thread of ${long} messages ...`);
    const warm = await pair(); // its unmatch loads the scripts, so the measured one runs them by SHA
    await app.matchService.unmatch({ pool: 'agent', userId: warm.a }, warm.matchId);
    const talk = await pair();
    for (let i = 0; i < long; i += 100) {
      await Promise.all(Array.from({ length: Math.min(100, long - i) }, (_, j) => send(talk, i + j, `long thread message ${i + j}`)));
      if (i % 10_000 === 0) log(`  ${i} sent`);
    }
    await probe.config('SET', 'slowlog-max-len', '100000');
    await probe.config('SET', 'slowlog-log-slower-than', '100');
    await probe.slowlog('RESET');
    log('unmatching it ...');
    const started = performance.now();
    await app.matchService.unmatch({ pool: 'agent', userId: talk.a }, talk.matchId);
    const answered = performance.now() - started;
    await app.outbox.sweep(0);
    const slow = (await probe.slowlog('GET', 100_000)) as Array<[number, number, number, string[]]>;
    const worst = slow.reduce<[number, string]>(
      (w, [, , micros, command]) => (micros > w[0] ? [micros, command.slice(0, 3).join(' ').slice(0, 80)] : w),
      [0, 'none over 0.1 ms'],
    );
    return {
      bytes_per_message: bytes,
      long_unmatch: {
        messages: long,
        worst_call_ms: worst[0] / 1000,
        worst_call: worst[1],
        calls_over_1ms: slow.filter(([, , micros]) => micros > 1000).length,
        unmatch_answered_ms: Math.round(answered * 10) / 10,
      },
    };
  } finally {
    probe.disconnect();
    await app.stop();
    await redis.stop();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      messages: { type: 'string', default: '2000' },
      matches: { type: 'string', default: '100' },
      long: { type: 'string', default: '100000' },
      json: { type: 'boolean', default: false },
    },
  });
  const r = await runMessageMemory({
    messages: Number(values.messages),
    matches: Number(values.matches),
    long: Number(values.long),
    log: (line) => console.error(line),
  });
  if (values.json) console.log(JSON.stringify(r, null, 2));
  else {
    console.log('\nRedis bytes per message');
    for (const b of r.bytes_per_message) {
      console.log(
        `  ${b.body.padEnd(26)} body ${b.body_bytes} B: ${b.at_rest} B at rest (${b.at_rest - b.body_bytes} B over the body; thread ${b.thread_share} B), ${b.with_marks} B with step marks (${b.messages} messages)`,
      );
    }
    const u = r.long_unmatch;
    console.log(
      `\nUnmatching a thread of ${u.messages} messages: answered in ${u.unmatch_answered_ms} ms; longest Redis call ${u.worst_call_ms} ms (${u.worst_call}); ${u.calls_over_1ms} calls over 1 ms`,
    );
  }
  process.exit(0);
}
