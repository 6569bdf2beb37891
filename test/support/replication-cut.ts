import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';

const run = promisify(execFile);

/** A cut replication stream: `restore` removes it (again harmlessly). */
export type ReplicationCut = { restore: () => Promise<void> };

/**
 * Cuts the replication stream from the master on `masterPort` to each of its replicas, as a network partition
 * would: an iptables rule drops what the master sends on each replica's connection (loopback, the master's
 * port to the replica's own), so the replica falls behind while both keep running and the cluster bus still
 * carries their heartbeats. Pausing the replica would not do: the stream would still reach its socket buffer.
 * Needs root and iptables (CI installs it).
 */
export async function cutReplication(masterPort: number): Promise<ReplicationCut> {
  const master = new Redis({ port: masterPort, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 1 });
  let clients: string;
  try {
    clients = String(await master.call('CLIENT', 'LIST', 'TYPE', 'replica'));
  } finally {
    master.disconnect();
  }
  const replicaPorts = [...clients.matchAll(/addr=127\.0\.0\.1:(\d+)/g)].map((match) => match[1]!);
  if (replicaPorts.length === 0) throw new Error(`the master on ${masterPort} has no replica connected`);
  const rules = replicaPorts.map((port) => ['OUTPUT', '-o', 'lo', '-p', 'tcp', '--sport', String(masterPort), '--dport', port, '-j', 'DROP']);
  for (const rule of rules) await run('iptables', ['-w', '-I', ...rule]);
  let restored = false;
  return {
    restore: async () => {
      if (restored) return;
      restored = true;
      for (const rule of rules) await run('iptables', ['-w', '-D', ...rule]).catch(() => undefined);
    },
  };
}
