import type { MatchHead } from './match.js';
import type { Pool } from '../../platform/core/pool.js';

const LIMIT = 50_000;

/**
 * The matches this process looked up lately, for writes to them (a message): who is in a match and
 * what they share never change once it exists, and whether it is still current is checked again by the
 * write's own script, so a kept entry saves the look-up round trip. Bounded: the oldest entry leaves first.
 */
export class RecentMatches {
  private readonly entries = new Map<string, MatchHead>();

  get(pool: Pool, id: number): MatchHead | undefined {
    return this.entries.get(`${pool}:${id}`);
  }

  remember(pool: Pool, match: MatchHead): void {
    const key = `${pool}:${match.id}`;
    if (this.entries.size >= LIMIT && !this.entries.has(key)) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, match);
  }

  forget(pool: Pool, id: number): void {
    this.entries.delete(`${pool}:${id}`);
  }
}
