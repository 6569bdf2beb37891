import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventLoopDelay } from '../../src/platform/metrics/event-loop-delay.js';
import { eventually } from '../support/eventually.js';
import { startStack } from '../support/stack.js';

const block = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('event-loop delay gauge', () => {
  it('reports a blocked loop as delay in ms (beyond the 10 ms sampling interval)', async () => {
    const gauge = new EventLoopDelay().start(60_000);
    try {
      // Blocks of 100 ms between short breaks until the gauge has samples enough to answer from this window;
      // a busy machine only takes more rounds.
      await eventually(
        'the blocked loop reported',
        () => {
          block(100);
          return gauge.readP99Ms() > 60;
        },
        20_000,
      );
    } finally {
      gauge.stop();
    }
  });

  it('answers with the last full window while a new one has too few samples', async () => {
    const windowMs = 3_000;
    const gauge = new EventLoopDelay().start(windowMs);
    // Timers fire in the order they fall due: this one, due just after the gauge's first window ends, runs
    // right after the gauge has started a new, empty window, however late both are.
    const windowEnded = sleep(windowMs + 5);
    try {
      // Ten blocks of 100 ms early in the first window: well over 1 % of its samples are 100 ms late.
      for (let i = 0; i < 10; i++) {
        block(100);
        await sleep(15);
      }
      await windowEnded;
      expect(gauge.readP99Ms()).toBeGreaterThan(60);
    } finally {
      gauge.stop();
    }
  });
});

describe('GET /metrics', () => {
  let stack: Awaited<ReturnType<typeof startStack>>;
  beforeAll(async () => {
    stack = await startStack({ METRICS_TOKEN: 'operators-metrics-token' });
  });
  afterAll(() => stack.stop());

  it('exposes the event-loop delay gauge next to the resident memory', async () => {
    const res = await stack.api.get('/metrics', { token: 'operators-metrics-token' });
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/^nodejs_eventloop_delay_p99_ms \d+(\.\d+)?$/m);
    expect(res.text).toMatch(/^process_resident_memory_bytes \d+$/m);
  });
});
