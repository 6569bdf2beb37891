import { describe, expect, it } from 'vitest';
import { runSwipeMemory } from '../../bench/swipe-memory.js';

describe('swipe memory bench', () => {
  it.each(['single', 'cluster'] as const)(
    'shows the swipe list and the passes leaving their compact encodings as swipes pile up (%s Redis)',
    async (topology) => {
      const result = await runSwipeMemory({ swipers: 2, swipes: 600, likeShare: 0.3, topology });
      const [first, , last] = result.checkpoints;
      expect(result.checkpoints.map((c) => c.swipes_per_swiper)).toEqual([50, 500, 600]);
      expect(first!.swipe_lists).toMatchObject({ entries: 100, encodings: ['listpack'] });
      expect(first!.passes.encodings).toEqual(['listpack']);
      expect(first!.pairs.entries).toBeGreaterThan(0);
      // Past 512 entries a hash is a hash table, past 128 a sorted set a skip list: what the capacity model counts.
      expect(last!.swipe_lists).toMatchObject({ entries: 1200, encodings: ['hashtable'] });
      expect(last!.passes.encodings).toEqual(['skiplist']);
      expect(last!.swipe_lists.bytes_per_entry).toBeGreaterThan(3 * first!.swipe_lists.bytes_per_entry);
      expect(last!.bytes_per_swipe).toBeGreaterThan(0);
    },
    60_000,
  );
});
