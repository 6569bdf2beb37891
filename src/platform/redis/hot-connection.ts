import type { RedisTopology } from './redis-topology.js';
import type { Word } from './resp.js';
import { ScriptConnection, type ScriptSource } from './script-connection.js';
import { SlotRoutedConnection } from './slot-routed-connection.js';

/** The hot connection of the request path's busiest calls (see Scripts.runHot), on either topology. */
export type HotConnection = {
  connect(): Promise<void>;
  /** `decode`: what the call resolves with instead of the raw reply (the script's decoder, run as the reply is read). */
  evalsha(script: ScriptSource, keys: readonly string[], args: readonly Word[], decode?: (reply: unknown) => unknown): Promise<unknown>;
  evalshaReplicated(script: ScriptSource, keys: readonly string[], args: readonly Word[], replicas: number, timeoutMs: number): Promise<unknown>;
  hget(key: string, field: string): Promise<string | null>;
  hmget(key: string, fields: readonly string[]): Promise<Array<string | null>>;
  /** A plain command on `key` (its first key), its reply as RESP gives it (HGETALL: a flat list of fields and values). */
  read(key: string, words: readonly Word[]): Promise<unknown>;
  quit(): Promise<void>;
  disconnect(): void;
};

/**
 * One ScriptConnection on a single Redis; on a Redis Cluster, one per master, routed by slot, whose calls
 * refused during a failover wait for the new master up to `failoverMs`.
 */
export function createHotConnection(topology: RedisTopology, commandTimeoutMs: number, failoverMs?: number): HotConnection {
  return topology.kind === 'single'
    ? new ScriptConnection(topology.url, commandTimeoutMs)
    : new SlotRoutedConnection(topology.nodes, commandTimeoutMs, failoverMs);
}
