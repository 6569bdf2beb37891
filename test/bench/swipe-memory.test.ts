import { describe, expect, it } from 'vitest';
import { runSwipeMemory } from '../../bench/swipe-memory.js';
import { PASSES_KEPT } from '../../src/platform/redis/keys.js';

describe('swipe memory bench', () => {
  it.each(['single', 'cluster'] as const)(
    'shows the swipe list leaving its compact encoding as swipes pile up, and the passes keeping theirs (%s Redis)',
    async (topology) => {
      const result = await runSwipeMemory({ swipers: 2, swipes: 600, likeShare: 0.3, topology });
      const [first, , last] = result.checkpoints;
      expect(result.checkpoints.map((c) => c.swipes_per_swiper)).toEqual([50, 500, 600]);
      expect(first!.swipe_lists).toMatchObject({ entries: 100, encodings: ['listpack'] });
      expect(first!.passes.encodings).toEqual(['listpack']);
      expect(first!.pairs.entries).toBeGreaterThan(0);
      // Past 512 entries a hash is a hash table: what the capacity model counts.
      expect(last!.swipe_lists).toMatchObject({ entries: 1200, encodings: ['hashtable'] });
      // The passes keep each account's newest few only: the swipe list holds every pass's time.
      expect(last!.passes).toMatchObject({ entries: 2 * PASSES_KEPT, encodings: ['listpack'] });
      expect(last!.swipe_lists.bytes_per_entry).toBeGreaterThan(3 * first!.swipe_lists.bytes_per_entry);
      expect(last!.bytes_per_swipe).toBeGreaterThan(0);
    },
    60_000,
  );
});
