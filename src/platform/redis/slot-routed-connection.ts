import keySlot from 'cluster-key-slot';
import { isRetryLater, nodeUrl, redirectionOf, slotOwners } from './cluster-slot-map.js';
import type { Word } from './resp.js';
import { DEFAULT_REDIS_FAILOVER_MS } from './redis.js';
import { ConnectionClosedError, neverSent, ScriptConnection, type ScriptSource } from './script-connection.js';
import { clusterName, joinSlotMapNews, mastersSignature } from './slot-map-news.js';

/** Redirections (MOVED, ASK) a call follows one after another before it fails with the last one (as many as ioredis follows). */
const MAX_REDIRECTIONS = 16;
/** The wait before asking again a call refused before it ran (no master ready for its slot, TRYAGAIN, CLUSTERDOWN), as ioredis waits. */
const RETRY_LATER_MS = 100;

type Node = { connection: ScriptConnection; opened: Promise<void> };
type Send = (connection: ScriptConnection, asking: boolean) => Promise<unknown>;

/**
 * The hot connection on a Redis Cluster: one ScriptConnection per master, each call sent to the master
 * of its key's slot (the keys of a call share one slot). The slot map is read with CLUSTER SLOTS from a
 * master already connected or else a seed node, at start, on MOVED, and whenever a node connection drops
 * or fails to reconnect. A call answered MOVED goes to the new master (the map takes the slot at once,
 * then is read again whole); ASK sends it once to the importing node behind ASKING, the map unchanged.
 *
 * A failover: a call that could not be sent (no master known for its slot, or its master's connection not
 * ready: the master died or stalled and no replica has taken over yet), or was refused with TRYAGAIN or
 * CLUSTERDOWN (the cluster electing a replica), is asked again every 100 ms with the slot map read anew,
 * until a master for its slot takes it or `failoverMs` have passed since its first refusal; then it fails
 * with the last refusal ("Connection is closed." or CLUSTERDOWN: Redis unreachable, a 503). These are
 * refusals before running, so following them is safe. A call whose connection dropped after it was sent
 * (ConnectionClosedError `sent`) fails and is never sent again, as on a single Redis: it may have run.
 */
export class SlotRoutedConnection {
  /** The master of each slot, `host:port`; '' where none is known. */
  private owners: string[] = [];
  private readonly nodes = new Map<string, Node>();
  private refreshing?: Promise<void>;
  private stopped = false;
  /** Reads the slot map when another client of this cluster in the process found new masters, and tells them when this one does. */
  private readonly news: ReturnType<typeof joinSlotMapNews>;

  constructor(
    private readonly seeds: readonly string[],
    private readonly commandTimeoutMs = 1_000,
    private readonly failoverMs = DEFAULT_REDIS_FAILOVER_MS,
  ) {
    this.news = joinSlotMapNews(clusterName(seeds), () => this.dropped());
  }

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
    this.news.leave();
    await Promise.allSettled([...this.nodes.values()].map((node) => node.connection.quit()));
  }

  disconnect() {
    this.stopped = true;
    this.news.leave();
    for (const node of this.nodes.values()) node.connection.disconnect();
  }

  private route(key: string | undefined, send: Send): Promise<unknown> {
    const slot = key === undefined ? 0 : keySlot(key);
    const address = this.owners[slot];
    if (!address) return this.retried(new ConnectionClosedError(false, `No master is known for slot ${slot}.`), slot, '', send);
    return send(this.node(address).connection, false).catch((error: unknown) => this.retried(error, slot, address, send));
  }

  /**
   * Follows MOVED and ASK (up to MAX_REDIRECTIONS in a row), and asks again a call refused before it ran
   * (never sent, TRYAGAIN, CLUSTERDOWN) every RETRY_LATER_MS until `failoverMs` after its first refusal;
   * any other error, a call sent on a connection that dropped among them, is the call's.
   */
  private async retried(error: unknown, slot: number, answeredBy: string, send: Send): Promise<unknown> {
    let deadline: number | undefined;
    for (let redirections = 0; ;) {
      const redirection = redirectionOf(error, answeredBy);
      if (redirection) {
        if (++redirections > MAX_REDIRECTIONS) throw error;
        if (!redirection.ask) this.owners[redirection.slot] = redirection.address;
      } else if ((neverSent(error) || isRetryLater(error)) && !this.stopped) {
        redirections = 0;
        deadline ??= Date.now() + this.failoverMs;
        if (Date.now() + RETRY_LATER_MS > deadline) throw error;
        this.dropped();
        await new Promise((resolve) => setTimeout(resolve, RETRY_LATER_MS));
      } else {
        throw error;
      }
      if (redirection && !redirection.ask) this.dropped();
      answeredBy = redirection?.address ?? this.owners[slot] ?? '';
      if (!answeredBy) {
        error = new ConnectionClosedError(false, `No master is known for slot ${slot}.`);
        continue;
      }
      const node = this.node(answeredBy);
      await node.opened;
      try {
        return await send(node.connection, redirection?.ask ?? false);
      } catch (next) {
        error = next;
      }
    }
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
    this.news.saw(mastersSignature((slot) => owners[slot]));
    const masters = new Set(owners.filter(Boolean));
    for (const address of masters) this.node(address);
    for (const [address, node] of this.nodes) {
      if (masters.has(address)) continue;
      this.nodes.delete(address);
      void node.connection.quit();
    }
  }
}
