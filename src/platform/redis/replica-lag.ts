import { masterNodes } from './master-nodes.js';
import type { RedisClient } from './redis.js';

/** What the masters say of their replicas: the fewest any master has online, and the most bytes any one is behind. */
export type ReplicaLag = { replicas: number; behindBytes: number };

/** Reads INFO replication of every master (on a single Redis: of it). */
export async function readReplicaLag(redis: RedisClient): Promise<ReplicaLag> {
  const reports = await Promise.all(masterNodes(redis).map((master) => master.info('replication')));
  let replicas = Number.POSITIVE_INFINITY;
  let behindBytes = 0;
  for (const report of reports) {
    const { online, behind } = replicasOf(report);
    replicas = Math.min(replicas, online);
    behindBytes = Math.max(behindBytes, behind);
  }
  return { replicas: Number.isFinite(replicas) ? replicas : 0, behindBytes };
}

/** `slaveN:ip=…,port=…,state=online,offset=…,lag=…` lines of one master, against its `master_repl_offset`. */
export function replicasOf(report: string): { online: number; behind: number } {
  const masterOffset = Number(/^master_repl_offset:(\d+)/m.exec(report)?.[1] ?? 0);
  let online = 0;
  let behind = 0;
  for (const [, fields] of report.matchAll(/^slave\d+:(.*)$/gm)) {
    const field = Object.fromEntries(
      fields!
        .trim()
        .split(',')
        .map((pair) => pair.split('=') as [string, string]),
    );
    if (field.state !== 'online') continue;
    online++;
    behind = Math.max(behind, masterOffset - Number(field.offset ?? 0));
  }
  return { online, behind };
}

/** `readReplicaLag`, read at most once per `maxAgeMs` however many gauges ask; a failed read says no replica, -1 bytes. */
export function replicaLagReader(redis: RedisClient, maxAgeMs = 1_000): () => Promise<ReplicaLag> {
  let last: { at: number; reading: Promise<ReplicaLag> } | undefined;
  return () => {
    if (!last || performance.now() - last.at > maxAgeMs) {
      last = { at: performance.now(), reading: readReplicaLag(redis).catch(() => ({ replicas: 0, behindBytes: -1 })) };
    }
    return last.reading;
  };
}
