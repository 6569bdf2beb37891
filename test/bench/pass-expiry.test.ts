import { describe, expect, it } from 'vitest';
import { runPassExpiry } from '../../bench/pass-expiry.js';
import { PASSES_KEPT } from '../../src/platform/redis/keys.js';

describe('pass expiry bench', () => {
  it('folds, sweeps and expires an account of many passes in steps bounded whatever their number', async () => {
    const passes = 1_000;
    const [folding, expiring, steady, undo] = await runPassExpiry(passes);
    // A step handles at most 200 passes (and a sweep page about as many): about passes / 200 calls each.
    expect(folding!.passes).toBe(PASSES_KEPT);
    expect(folding!.swipeList).toBe(passes);
    expect(folding!.micros.length).toBeGreaterThanOrEqual(passes / 200 - 1);
    expect(folding!.micros.length).toBeLessThanOrEqual(passes / 200 + 2);
    expect(expiring).toMatchObject({ swipeList: 0, passes: 0 });
    expect(expiring!.micros.length).toBeLessThanOrEqual(passes / 200 + 2);
    expect(steady).toMatchObject({ swipeList: passes, passes: PASSES_KEPT });
    expect(steady!.micros).toHaveLength(200);
    expect(undo!.micros).toHaveLength(200);
    expect(undo).toMatchObject({ swipeList: passes, passes: PASSES_KEPT });
  }, 60_000);
});
