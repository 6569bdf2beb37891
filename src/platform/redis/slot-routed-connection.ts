import keySlot from 'cluster-key-slot';
import { isRetryLater, nodeUrl, redirectionOf, slotOwners } from './cluster-slot-map.js';
import type { Word } from './resp.js';
import { ScriptConnection, type ScriptSource } from './script-connection.js';

/** Redirections a call follows before it fails with the last one (as many as ioredis follows). */
const MAX_REDIRECTIONS = 16;
/** The wait before asking again after TRYAGAIN or CLUSTERDOWN (ioredis waits as long). */
const RETRY_LATER_MS = 100;

type Node = { connection: ScriptConnection; opened: Promise<void> };
type Send = (connection: ScriptConnection, asking: boolean) => Promise<unknown>;

/**
 * The lean connection on a Redis Cluster: one ScriptConnection per master, each call sent to the master
 * of its key's slot (the keys of a call share one slot). The slot map is read with CLUSTER SLOTS from a
 * master already connected or else a seed node, at start, on MOVED, and whenever a node connection drops
 * or fails to reconnect. A call answered MOVED goes to the new master (the map takes the slot at once,
 * then is read again whole); ASK sends it once to the importing node behind ASKING, the map unchanged;
 * TRYAGAIN and CLUSTERDOWN are asked again after 100 ms. These are refusals before running, so following
 * them is safe; a call whose connection drops still fails and is not resent, as on a single Redis.
 */
export class SlotRoutedConnection {
  /** The master of each slot, `host:port`; '' where none is known. */
  private owners: string[] = [];
  private readonly nodes = new Map<string, Node>();
  private refreshing?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly seeds: readonly string[],
    private readonly commandTimeoutMs = 1_000,
  ) {}

  /** Reads the slot map and connects to every master; rejects if no node answers for the map. */
  async connect(): Promise<void> {
    await this.refresh();
    await Promise.all([...this.nodes.values()].map((node) => node.opened));
  }

  evalsha(script: ScriptSource, keys: readonly string[], args: readonly Word[], decode?: (reply: unknown) => unknown): Promise<unknown> {
    return this.route(keys[0], (connection, asking) => connection.evalsha(script, keys, args, decode, asking));
  }

  /** On the master of the keys' slot, WAIT on the very connection the script ran on (see ScriptConnection.replicated). */
  evalshaReplicated(script: ScriptSource, keys: readonly string[], args: readonly Word[], replicas: number, timeoutMs: number): Promise<unknown> {
    return this.route(keys[0], (connection, asking) => connection.evalshaReplicated(script, keys, args, replicas, timeoutMs, asking));
  }

  hget(key: string, field: string): Promise<string | null> {
    return this.route(key, (connection, asking) => connection.call(['HGET', key, field], asking)) as Promise<string | null>;
  }

  hmget(key: string, fields: readonly string[]): Promise<Array<string | null>> {
    return this.route(key, (connection, asking) => connection.call(['HMGET', key, ...fields], asking)) as Promise<Array<string | null>>;
  }

  read(key: string, words: readonly Word[]): Promise<unknown> {
    return this.route(key, (connection, asking) => connection.call(words, asking));
  }

  /** Lets calls in flight finish, then closes every node connection for good. */
  async quit(): Promise<void> {
    this.stopped = true;
    await Promise.allSettled([...this.nodes.values()].map((node) => node.connection.quit()));
  }

  disconnect() {
    this.stopped = true;
    for (const node of this.nodes.values()) node.connection.disconnect();
  }

  private route(key: string | undefined, send: Send): Promise<unknown> {
    const slot = key === undefined ? 0 : keySlot(key);
    const address = this.owners[slot];
    if (!address) {
      this.dropped();
      return Promise.reject(new Error(`Connection is closed. No master is known for slot ${slot}.`));
    }
    return send(this.node(address).connection, false).catch((error: unknown) => this.redirected(error, slot, address, send));
  }

  /** Follows MOVED, ASK, TRYAGAIN and CLUSTERDOWN, up to MAX_REDIRECTIONS; any other error is the call's. */
  private async redirected(error: unknown, slot: number, answeredBy: string, send: Send): Promise<unknown> {
    for (let redirections = 1; redirections <= MAX_REDIRECTIONS; redirections++) {
      const redirection = redirectionOf(error, answeredBy);
      if (redirection && !redirection.ask) {
        this.owners[redirection.slot] = redirection.address;
        this.dropped();
      } else if (!redirection) {
        if (!isRetryLater(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, RETRY_LATER_MS));
      }
      answeredBy = redirection?.address ?? (this.owners[slot] || answeredBy);
      const node = this.node(answeredBy);
      await node.opened;
      try {
        return await send(node.connection, redirection?.ask ?? false);
      } catch (next) {
        error = next;
      }
    }
    throw error;
  }

  private node(address: string): Node {
    let node = this.nodes.get(address);
    if (!node) {
      const connection = new ScriptConnection(nodeUrl(address), this.commandTimeoutMs, { onDrop: () => this.dropped() });
      node = { connection, opened: connection.connect().catch(() => undefined) };
      this.nodes.set(address, node);
    }
    return node;
  }

  /** The map may be stale (a node dropped, a slot moved): read it again, once however many ask. */
  private dropped() {
    if (!this.stopped) this.refresh().catch(() => undefined);
  }

  private refresh(): Promise<void> {
    this.refreshing ??= this.readSlots().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  /** CLUSTER SLOTS from the first node that answers: the masters connected, then the seeds. */
  private async readSlots(): Promise<void> {
    let failure: unknown = new Error('no Redis Cluster node to ask for the slot map');
    for (const address of new Set([...this.nodes.keys(), ...this.seeds])) {
      try {
        this.use(slotOwners(await this.ask(address, ['CLUSTER', 'SLOTS']), address));
        return;
      } catch (error) {
        failure = error;
      }
    }
    throw failure;
  }

  /** A command to one node, on its connection if it has one, else on one opened for it alone. */
  private async ask(address: string, words: readonly Word[]): Promise<unknown> {
    const node = this.nodes.get(address);
    if (node) return node.connection.call(words);
    const once = new ScriptConnection(nodeUrl(address), this.commandTimeoutMs);
    try {
      await once.connect();
      return await once.call(words);
    } finally {
      once.disconnect();
    }
  }

  /** Takes a new slot map: connects to masters new to it, closes connections to nodes no longer masters. */
  private use(owners: string[]) {
    if (this.stopped) return;
    this.owners = owners;
    const masters = new Set(owners.filter(Boolean));
    for (const address of masters) this.node(address);
    for (const [address, node] of this.nodes) {
      if (masters.has(address)) continue;
      this.nodes.delete(address);
      void node.connection.quit();
    }
  }
}
