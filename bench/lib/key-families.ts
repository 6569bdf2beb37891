import type { Redis } from 'ioredis';
import { KEY_PREFIX } from '../../src/platform/redis/key-space.js';

/** Where one kind of key spends Redis memory: how many keys, their bytes (MEMORY USAGE) and encodings. */
export type KeyFamily = {
  family: string;
  keys: number;
  /** MEMORY USAGE summed over the family (sampled keys scaled up when the family has more than `sample` keys). */
  bytes: number;
  /** Members (hash fields, set or sorted-set members, string: 1) summed the same way. */
  members: number;
  /** Keys per encoding among those measured (OBJECT ENCODING). */
  encodings: Record<string, number>;
};

/**
 * The family of a key: its kind after the prefix, the pool and the hash tag (`user`, `feed`,
 * `disc:interest`, `email`, ...), so one family holds every key of one kind whatever its pool, id or
 * partition.
 */
export function familyOf(key: string): string {
  const parts = (key.startsWith(KEY_PREFIX) ? key.slice(KEY_PREFIX.length) : key).split(':');
  const rest = parts[0] === 'agent' || parts[0] === 'member' ? parts.slice(1) : parts;
  const kind = rest[0]?.startsWith('{') ? rest.slice(1) : rest;
  const head = kind[0] ?? '';
  if (head === 'disc' || head === 'seq' || head === 'outbox' || head === 'rl') return kind.slice(0, 2).join(':');
  return head;
}

/**
 * Every key of the database grouped by family, with the bytes of each family: every key measured
 * exactly (MEMORY USAGE … SAMPLES 0) when the family has at most `sample` keys, else a random `sample`
 * of them scaled up to the family's count. One SCAN over the keyspace; meant for a bench's private Redis.
 */
export async function measureKeyFamilies(redis: Redis, sample = 250_000): Promise<KeyFamily[]> {
  const byFamily = new Map<string, string[]>();
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'COUNT', 5_000);
    cursor = next;
    for (const key of found) {
      const family = familyOf(key);
      const list = byFamily.get(family);
      if (list) list.push(key);
      else byFamily.set(family, [key]);
    }
  } while (cursor !== '0');

  const out: KeyFamily[] = [];
  for (const [family, all] of byFamily) {
    const measured = all.length <= sample ? all : pickRandom(all, sample);
    const pipeline = redis.pipeline();
    for (const key of measured) pipeline.call('MEMORY', 'USAGE', key, 'SAMPLES', '0').type(key).object('ENCODING', key);
    const replies = (await pipeline.exec()) ?? [];
    let bytes = 0;
    const types: Array<[string, string]> = [];
    const encodings: Record<string, number> = {};
    for (let i = 0; i < measured.length; i++) {
      bytes += Number(replies[3 * i]?.[1] ?? 0);
      const type = String(replies[3 * i + 1]?.[1]);
      const encoding = String(replies[3 * i + 2]?.[1]);
      types.push([measured[i]!, type]);
      encodings[encoding] = (encodings[encoding] ?? 0) + 1;
    }
    const counts = redis.pipeline();
    for (const [key, type] of types) {
      if (type === 'hash') counts.hlen(key);
      else if (type === 'set') counts.scard(key);
      else if (type === 'zset') counts.zcard(key);
      else if (type === 'list') counts.llen(key);
      else if (type === 'stream') counts.xlen(key);
      else counts.exists(key);
    }
    const members = ((await counts.exec()) ?? []).reduce((sum, [, n]) => sum + Number(n ?? 0), 0);
    const scale = all.length / measured.length;
    out.push({ family, keys: all.length, bytes: Math.round(bytes * scale), members: Math.round(members * scale), encodings });
  }
  return out.sort((a, b) => b.bytes - a.bytes);
}

/** The memory figures of INFO memory that tell data from overhead. */
export async function memoryInfo(redis: Redis): Promise<Record<string, number>> {
  const info = await redis.info('memory');
  const wanted = ['used_memory', 'used_memory_dataset', 'used_memory_overhead', 'used_memory_startup'];
  return Object.fromEntries(wanted.map((field) => [field, Number(new RegExp(`${field}:(\\d+)`).exec(info)?.[1] ?? 0)]));
}

/** A family's figures per agent, as a report carries them. */
export type FamilyFigures = { keys: number; members: number; bytes_per_agent: number; encodings: string };

/** The families keyed by name, largest first, their bytes per agent of `agents`. */
export function familyFigures(families: readonly KeyFamily[], agents: number): Record<string, FamilyFigures> {
  return Object.fromEntries(
    families.map((f) => [
      f.family,
      {
        keys: f.keys,
        members: f.members,
        bytes_per_agent: Math.round((f.bytes / agents) * 10) / 10,
        encodings: Object.entries(f.encodings)
          .map(([encoding, n]) => `${encoding} ${n}`)
          .join(', '),
      },
    ]),
  );
}

/** A table of the families, largest first, with their sum. */
export function familyTable(families: Record<string, FamilyFigures>): string {
  const lines = [`    ${'kind of key'.padEnd(24)} ${'keys'.padStart(8)} ${'members'.padStart(10)} ${'B/agent'.padStart(9)}  encodings (keys measured)`];
  let total = 0;
  for (const [name, f] of Object.entries(families)) {
    total += f.bytes_per_agent;
    lines.push(
      `    ${name.padEnd(24)} ${String(f.keys).padStart(8)} ${String(f.members).padStart(10)} ${f.bytes_per_agent.toFixed(1).padStart(9)}  ${f.encodings}`,
    );
  }
  lines.push(`    ${'sum'.padEnd(24)} ${''.padStart(8)} ${''.padStart(10)} ${total.toFixed(1).padStart(9)}`);
  return lines.join('\n');
}

function pickRandom<T>(items: readonly T[], count: number): T[] {
  const copy = [...items];
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(Math.random() * (copy.length - i));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, count);
}
