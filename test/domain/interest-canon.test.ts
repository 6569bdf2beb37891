import { describe, expect, it } from 'vitest';
import { canonicalInterest } from '../../src/features/accounts/interest-canon.js';
import { normalizeInterests } from '../../src/features/accounts/interest-schemas.js';
import { INTEREST_PAIRS } from './interest-pairs.js';

describe('canonical interests', () => {
  it('treats synonyms, abbreviations and word forms as one interest: precision ≥ 0.9 and recall ≥ 0.8 on "same"', () => {
    expect(INTEREST_PAIRS.length).toBeGreaterThanOrEqual(200);
    let truePositive = 0;
    let falsePositive = 0;
    let falseNegative = 0;
    const misses: string[] = [];
    for (const [a, b, label] of INTEREST_PAIRS) {
      const saysSame = canonicalInterest(a) === canonicalInterest(b);
      if (saysSame && label === 'same') truePositive++;
      else if (saysSame) falsePositive++;
      else if (label === 'same') falseNegative++;
      if (saysSame !== (label === 'same')) misses.push(`${a} / ${b} (${label}): ${canonicalInterest(a)} / ${canonicalInterest(b)}`);
    }
    const precision = truePositive / (truePositive + falsePositive);
    const recall = truePositive / (truePositive + falseNegative);
    console.log(
      `interest pairs: ${INTEREST_PAIRS.length}, precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)}; misjudged:\n  ${misses.join('\n  ')}`,
    );
    expect(precision).toBeGreaterThanOrEqual(0.9);
    expect(recall).toBeGreaterThanOrEqual(0.8);
  });

  it('gives one canonical name to the forms a profile lists, dropping the duplicates they make', () => {
    expect(normalizeInterests('ML, Machine-Learning, Hikes, hiking, JS')).toEqual(['machine learning', 'hiking', 'javascript']);
    expect(normalizeInterests(['  Board   Games ', 'chess', 'CHESS'])).toEqual(['board games', 'chess']);
  });

  it('keeps look-alikes apart', () => {
    expect(canonicalInterest('java')).not.toBe(canonicalInterest('javascript'));
    expect(canonicalInterest('art')).not.toBe(canonicalInterest('martial arts'));
    expect(canonicalInterest('go')).not.toBe(canonicalInterest('golang'));
  });
});
