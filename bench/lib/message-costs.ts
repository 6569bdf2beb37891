import { runLoad } from './http-load.js';
import { redisInfo } from './monitor.js';
import { bearer } from './phase.js';
import type { BenchAgent } from './population.js';
import type { BenchContext } from './types.js';

export type BenchMatch = { a: BenchAgent; b: BenchAgent; matchId: string };

const MESSAGES_PER_MATCH = 20;
const BODY_LENGTH = 120;

/**
 * Redis bytes and Redis CPU per message: a known number of messages (120 characters each, the two sides
 * taking turns) over matches made earlier, with `settledBytes` (stored bytes once background work is done)
 * and redis-server's CPU time read before and after. A message's bytes include its thread entry, its entry
 * ids kept with the match, and its three events (both users' streams and the spectator stream).
 */
export async function measureMessageCosts(
  ctx: BenchContext,
  matches: readonly BenchMatch[],
  settledBytes: (ctx: BenchContext) => Promise<number>,
): Promise<Record<string, number | string>> {
  if (matches.length === 0) return { memory_messages_sent: 0 };
  ctx.progress.info(`memory: ${matches.length * MESSAGES_PER_MATCH} messages over ${matches.length} matches…`);
  const body = JSON.stringify({ body: 'm'.repeat(BODY_LENGTH) });
  const before = await settledBytes(ctx);
  const cpuBefore = await redisCpuSeconds(ctx);
  let sent = 0;
  let index = 0;
  await runLoad({
    host: ctx.target.host,
    port: ctx.target.port,
    ports: ctx.target.ports,
    connections: 16,
    durationMs: 120_000,
    maxRequests: matches.length * MESSAGES_PER_MATCH,
    client: () => {
      const match = matches[index++];
      if (!match) return null;
      let k = 0;
      return {
        localAddress: ctx.addresses.next(),
        next: () => {
          if (k >= MESSAGES_PER_MATCH) return null;
          const from = k++ % 2 === 0 ? match.a : match.b;
          const headers = { ...bearer(from.token), 'Content-Type': 'application/json' };
          return { method: 'POST', path: `/api/v1/matches/${match.matchId}/messages`, headers, body, tag: 'POST message' };
        },
        onResponse: (_request, status) => {
          if (status === 201) sent++;
        },
      };
    },
  });
  const after = await settledBytes(ctx);
  const cpuAfter = await redisCpuSeconds(ctx);
  return {
    memory_messages_sent: sent,
    redis_bytes_per_message: sent > 0 ? (after - before) / sent : 'n/a',
    redis_cpu_us_per_message: sent > 0 ? ((cpuAfter - cpuBefore) * 1e6) / sent : 'n/a',
  };
}

async function redisCpuSeconds(ctx: BenchContext): Promise<number> {
  const info = await redisInfo(ctx.redis, 'cpu');
  return (info.used_cpu_user ?? 0) + (info.used_cpu_sys ?? 0);
}
