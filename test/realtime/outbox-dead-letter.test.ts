import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pool } from '../../src/platform/core/pool.js';
import type { EffectStep } from '../../src/platform/outbox/effect-handlers.js';
import { keys } from '../../src/platform/redis/keys.js';
import { eventually } from '../support/eventually.js';
import { startStack } from '../support/stack.js';

const METRICS_TOKEN = 'dead-letter-metrics-token';
const MAX_ATTEMPTS = 3;
const SHARD = 7;

let stack: Awaited<ReturnType<typeof startStack>>;
/** Every effect the always-failing step was asked to carry out, by pending id. */
const tries = new Map<string, number>();

beforeAll(async () => {
  stack = await startStack({ EVENT_SWEEP_MS: 100, OUTBOX_MAX_ATTEMPTS: MAX_ATTEMPTS, METRICS_TOKEN });
  // A outbox step that can never complete, registered like any other step.
  stack.app.outbox.register({
    types: ['test.always_fails'],
    apply: (_pool: Pool, steps: readonly EffectStep[]) => {
      for (const { effect } of steps) {
        const id = String(effect.id);
        tries.set(id, (tries.get(id) ?? 0) + 1);
      }
      return Promise.reject(new Error('this step can never complete'));
    },
  });
});
afterAll(async () => {
  await stack?.stop();
});

/** Writes a pending record as a commit script would, committed long ago (due at the next sweep). */
async function plant(pendingId: string, effects: unknown[]) {
  await stack.app.redis.hset(keys.shardOutbox('agent', SHARD), pendingId, JSON.stringify(effects));
  await stack.app.redis.zadd(keys.shardOutboxDue('agent', SHARD), 1, pendingId);
}

const deadLetter = async (pendingId: string) => {
  const raw = await stack.app.redis.hget(keys.outboxDeadLetter(), `agent:${SHARD}:${pendingId}`);
  return raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined;
};

describe('an outbox record that can never be completed', () => {
  it('goes to the dead letter after OUTBOX_MAX_ATTEMPTS sweeps, is retried no more, and is counted in /metrics', async () => {
    await plant('poison-1', [{ type: 'test.always_fails', id: 'poison-1' }]);

    const buried = await eventually('the record in the dead letter', () => deadLetter('poison-1').then((entry) => entry ?? false));
    expect(buried).toMatchObject({
      pool: 'agent',
      shard: SHARD,
      id: 'poison-1',
      record: JSON.stringify([{ type: 'test.always_fails', id: 'poison-1' }]),
      attempts: MAX_ATTEMPTS,
      last_error: 'this step can never complete',
      outbox: keys.shardOutbox('agent', SHARD),
      due: keys.shardOutboxDue('agent', SHARD),
    });
    expect(tries.get('poison-1')).toBe(MAX_ATTEMPTS);
    expect(await stack.app.redis.hexists(keys.shardOutbox('agent', SHARD), 'poison-1')).toBe(0);
    expect(await stack.app.redis.zscore(keys.shardOutboxDue('agent', SHARD), 'poison-1')).toBeNull();
    expect(await stack.app.redis.exists(keys.outboxFailures('agent', SHARD, 'poison-1'))).toBe(0);

    // Later sweeps complete a later record (the marker) and leave the buried one alone.
    await plant('marker-1', []);
    await eventually('the marker completed', async () => (await stack.app.redis.hexists(keys.shardOutbox('agent', SHARD), 'marker-1')) === 0);
    await plant('marker-2', []);
    await eventually('a second marker completed', async () => (await stack.app.redis.hexists(keys.shardOutbox('agent', SHARD), 'marker-2')) === 0);
    expect(tries.get('poison-1')).toBe(MAX_ATTEMPTS);

    const metrics = await stack.api.get('/metrics', { token: METRICS_TOKEN });
    expect(metrics.text).toMatch(/^outbox_dead_letters_total\{pool="agent"\} 1$/m);
  });
});
