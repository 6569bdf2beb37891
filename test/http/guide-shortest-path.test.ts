import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { killChildren, run } from '../support/child-process.js';
import { scanKeys } from '../support/scan-keys.js';
import { startStack } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startStack>>;
let dir: string;
beforeAll(async () => {
  stack = await startStack();
  dir = mkdtempSync(join(tmpdir(), 'agent-match-guide-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await stack?.stop();
});
afterEach(killChildren);

/** One HTTP call the guide's script made: its method and path, and the block of the guide it was in. */
type Call = { block: number; method: string; path: string };

/**
 * Runs the guide's shell blocks in one bash session, as `docs.test.ts` does, with `curl` wrapped to note each
 * call it makes and a line between blocks saying which block runs: the script itself is unchanged.
 */
async function runCounted(blocks: string[]): Promise<{ code: number | null; stderr: string; calls: Call[] }> {
  const log = join(dir, 'calls.log');
  const prelude = `CALLS_LOG=${log}\n: > "$CALLS_LOG"\ncurl() { printf 'call %s\\n' "$*" >> "$CALLS_LOG"; command curl "$@"; }`;
  const script = [prelude, ...blocks.map((block, i) => `printf 'block ${i}\\n' >> "$CALLS_LOG"\n${block}`)].join('\n');
  const { code, stderr } = await run('bash', ['-c', script], {}, 60_000);
  const calls: Call[] = [];
  let block = -1;
  for (const line of readFileSync(log, 'utf8').split('\n')) {
    const marker = /^block (\d+)$/.exec(line);
    if (marker) block = Number(marker[1]);
    const call = /^call .*-X (\S+) (\S+)/.exec(line);
    if (call) calls.push({ block, method: call[1]!, path: new URL(call[2]!).pathname });
  }
  return { code, stderr, calls };
}

describe("the guide's shortest path from the base URL to a first message", () => {
  it('takes the calls it counts, at most 6, as the script makes them (register, feed, like, the other side likes, matches, message), and the script creates no webhook', async () => {
    const guide = (await stack.api.get('/skill.md', { headers: { host: `127.0.0.1:${stack.app.port}` } })).text;
    const blocks = [...guide.matchAll(/```bash\n([\s\S]*?)```/g)].map((m) => m[1]!);
    const { code, stderr, calls } = await runCounted(blocks);
    expect(code, stderr).toBe(0);
    const pathBlocks = blocks.flatMap((block, i) => (block.startsWith('# Shortest path') ? [i] : []));
    expect(pathBlocks).toHaveLength(2);
    const path = calls.filter((call) => pathBlocks.includes(call.block)).map((call) => `${call.method} ${call.path.replace(/\/\d+/g, '/{id}')}`);
    expect(path).toEqual([
      'POST /api/v1/agents/register',
      'GET /api/v1/discovery/feed',
      'POST /api/v1/likes/{id}',
      'GET /api/v1/matches',
      'POST /api/v1/matches/{id}/messages',
    ]);
    expect(path.length).toBeLessThanOrEqual(6);
    // the guide counts them as they were made: its heading and one numbered row per call
    expect(guide).toContain(`## Shortest path: from the base URL to a first message in ${path.length} calls`);
    const table = guide.slice(guide.indexOf('## Shortest path'), guide.indexOf('## How answers work'));
    const rows = [...table.matchAll(/^\| (\d+) \| `(\w+) ([^`?]+)/gm)].map((m) => `${m[2]} ${m[3]!.replace(/\{\w+\}/g, '{id}')}`);
    expect(rows).toEqual(path);
    // between the two halves only the other agent calls: its like back
    const between = calls.filter((call) => call.block > pathBlocks[0]! && call.block < pathBlocks[1]!);
    expect(between.map((call) => call.method + ' ' + call.path.replace(/\/\d+/g, '/{id}'))).toEqual(['POST /api/v1/likes/{id}', 'POST /api/v1/likes/{id}']);
    // and the script, run to its end, left no webhook behind (none pointing nowhere, retried for a day)
    expect(calls.filter((call) => call.path.startsWith('/api/v1/webhooks'))).toEqual([]);
    const redis = stack.redis.client();
    try {
      expect(await scanKeys(redis, 'am:*webhook*')).toEqual([]);
    } finally {
      redis.disconnect();
    }
  });
});
