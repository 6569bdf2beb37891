import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventLoopDelay } from '../../src/http/event-loop-delay.js';
import { startStack } from '../support/stack.js';

const block = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('event-loop delay gauge', () => {
  /** Blocks the loop for 100 ms at a time, with short breaks, until `untilMs` after `started`. */
  const stall = async (started: number, untilMs: number) => {
    while (performance.now() - started < untilMs) {
      block(100);
      await sleep(15);
    }
  };

  it('reports a blocked loop as delay in ms (beyond the 10 ms sampling interval)', async () => {
    const gauge = new EventLoopDelay().start(60_000);
    try {
      const started = performance.now();
      await sleep(600);
      await stall(started, 1_200);
      expect(gauge.readP99Ms()).toBeGreaterThan(60);
    } finally {
      gauge.stop();
    }
  });

  it('answers with the last full window while a new one has too few samples', async () => {
    const gauge = new EventLoopDelay().start(1_000);
    try {
      const started = performance.now();
      await sleep(500);
      await stall(started, 1_150);
      await sleep(100);
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
