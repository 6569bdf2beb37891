import { SLOT_COUNT } from '../redis/cluster-slot-map.js';
import type { Word } from '../redis/resp.js';
import { ScriptConnection } from '../redis/script-connection.js';

/** How often a cluster's state is read while waiting for it to form, heal or fail over. */
const POLL_MS = 50;

/** One command to the node on `port` of 127.0.0.1, on a connection of its own; fails within `timeoutMs` if the node does not answer. */
export async function ask(port: number, words: readonly Word[], timeoutMs = 2_000): Promise<unknown> {
  const connection = new ScriptConnection(`redis://127.0.0.1:${port}`, timeoutMs);
  try {
    await connection.connect();
    return await connection.call(words);
  } finally {
    connection.disconnect();
  }
}

const askText = async (port: number, words: readonly Word[]) => String(await ask(port, words));
const field = (info: string, name: string) => new RegExp(`^${name}:(.*)$`, 'm').exec(info)?.[1]?.trim();

/** A node as a line of CLUSTER NODES says: `<id> <ip:port@cport[,hostname]> <flags> <master id|-> … <slot ranges>`. */
export type NodeLine = { id: string; port: number; flags: string[]; master: string; slots: number };

function parseNodes(text: string): NodeLine[] {
  return text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [id, address, flags, master, , , , , ...ranges] = line.trim().split(' ');
      const slots = ranges
        .filter((range) => !range.startsWith('['))
        .reduce((sum, range) => {
          const [first, last = first] = range.split('-').map(Number);
          return sum + last! - first! + 1;
        }, 0);
      return { id: id!, port: Number(/:(\d+)@/.exec(address!)?.[1]), flags: flags!.split(','), master: master!, slots };
    });
}

export const clusterNodes = async (port: number): Promise<NodeLine[]> => parseNodes(await askText(port, ['CLUSTER', 'NODES']));

/** Asks `probe` every 50 ms until it gives something other than undefined; fails after `timeoutMs`, naming `what` and the last error. */
export async function poll<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const found = await probe();
      if (found !== undefined) return found;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms${last instanceof Error ? `: ${last.message}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * Joins fresh nodes into a cluster, as `redis-cli --cluster create` does but without its sleeps of a whole
 * second: even slot ranges for the masters and a distinct epoch for every node, every node meeting every
 * other (a node learns a master's slots from that master only: one that met it through gossip alone may wait
 * seconds for its next ping), then each replica given its master once it knows it.
 */
export async function formCluster(masters: readonly number[], replicas: ReadonlyArray<{ port: number; master: number }>): Promise<void> {
  const all = [...masters, ...replicas.map((replica) => replica.port)];
  const ids = new Map(await Promise.all(all.map(async (port) => [port, await askText(port, ['CLUSTER', 'MYID'])] as const)));
  await Promise.all(
    all.map(async (port, n) => {
      if (n < masters.length) {
        const [first, last] = [n, n + 1].map((at) => Math.floor((at * SLOT_COUNT) / masters.length));
        await ask(port, ['CLUSTER', 'ADDSLOTSRANGE', first!, last! - 1]);
      }
      await ask(port, ['CLUSTER', 'SET-CONFIG-EPOCH', n + 1]);
    }),
  );
  await Promise.all(all.map((port, n) => Promise.all(all.slice(0, n).map((other) => ask(port, ['CLUSTER', 'MEET', '127.0.0.1', other])))));
  await Promise.all(
    replicas.map(({ port, master }) =>
      poll(`replica ${port} meeting master ${master}`, 15_000, async () => {
        const known = (await clusterNodes(port)).some((node) => node.id === ids.get(master) && !node.flags.includes('handshake'));
        return known ? ask(port, ['CLUSTER', 'REPLICATE', ids.get(master)!]) : undefined;
      }),
    ),
  );
}

const role = (node: NodeLine) => (node.flags.includes('master') ? 'master' : 'replica');

/**
 * The cluster as every node of `live` sees it, by port, once each says cluster_state:ok, knows all `total`
 * nodes, and they all agree on every node's role, master and slot count; undefined until then.
 */
export async function agreedView(live: readonly number[], total: number): Promise<Map<number, NodeLine> | undefined> {
  const views = await Promise.all(
    live.map(async (port) => (field(await askText(port, ['CLUSTER', 'INFO']), 'cluster_state') === 'ok' ? clusterNodes(port) : undefined)),
  );
  if (views.some((view) => view === undefined || view.length !== total)) return undefined;
  const describe = (view: NodeLine[]) => JSON.stringify(view.map((node) => [node.port, role(node), node.master, node.slots]).sort());
  const first = describe(views[0]!);
  if (views.some((view) => describe(view!) !== first)) return undefined;
  return new Map(views[0]!.map((node) => [node.port, node]));
}

/** The port of the master the node on `port` replicates, once it is a replica in sync (master_link_status:up); else undefined. */
export async function replicatedMaster(port: number): Promise<number | undefined> {
  const info = await askText(port, ['INFO', 'replication']);
  return field(info, 'role') === 'slave' && field(info, 'master_link_status') === 'up' ? Number(field(info, 'master_port')) : undefined;
}

/** The port of the master serving `slot`, as the first of `live` that answers says. */
export async function slotMaster(live: readonly number[], slot: number): Promise<number> {
  for (const port of live) {
    const ranges = (await ask(port, ['CLUSTER', 'SLOTS']).catch(() => undefined)) as Array<[number, number, [string, number]]> | undefined;
    const range = ranges?.find(([first, last]) => first <= slot && slot <= last);
    if (range) return range[2][1];
  }
  throw new Error(`no live node names a master for slot ${slot}`);
}
