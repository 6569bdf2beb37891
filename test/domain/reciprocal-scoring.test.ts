import { describe, expect, it } from 'vitest';
import {
  interestsPart,
  LIKED_YOU_BONUS,
  oneSidedFit,
  rankScore,
  reciprocalPart,
  recencyPart,
  RECENCY_DAYS,
  RECENCY_WEIGHT,
  scoreBreakdown,
  SCORE_SCALE,
  type ScoreInputs,
} from '../../src/features/discovery/discovery-scoring.js';
import { ageOfBirth, decodeTaste, emptyTaste, encodeTaste, noteSwipe, tasteFit } from '../../src/features/discovery/swipe-taste.js';

const DAY = 86_400_000;
const base: ScoreInputs = { shared: 3000, viewerMass: 6000, candidateMass: 6000, viewerFit: 0.5, candidateFit: 0.5, likedYou: false, nowMs: 0 };

describe('the reciprocal part', () => {
  it('is the harmonic mean of the two sides, so it is high only when both are', () => {
    expect(reciprocalPart(0.8, 0.8)).toBeCloseTo(0.8);
    expect(reciprocalPart(0.9, 0.1)).toBeCloseTo(0.18);
    expect(reciprocalPart(0.9, 0.1)).toBeLessThan(reciprocalPart(0.5, 0.5));
    expect(reciprocalPart(1, 0)).toBe(0);
  });
  it('is the same both ways round, so a score in one feed is the score in the other (without the lifts)', () => {
    const ab = scoreBreakdown({ ...base, viewerMass: 4000, candidateMass: 9000, viewerFit: 0.7, candidateFit: 0.2 });
    const ba = scoreBreakdown({ ...base, viewerMass: 9000, candidateMass: 4000, viewerFit: 0.2, candidateFit: 0.7 });
    expect(ab).toEqual(ba);
  });
  it('falls when the candidate shares a thin slice of a side’s interests', () => {
    expect(oneSidedFit(3000, 3000, 1)).toBe(1);
    expect(oneSidedFit(3000, 12_000, 1)).toBeLessThan(oneSidedFit(3000, 6000, 1));
    expect(oneSidedFit(0, 6000, 1)).toBeGreaterThan(0); // a fit by taste alone still counts a little
  });
});

describe('a side’s taste', () => {
  it('learns the genders an account likes from its own swipes', () => {
    const taste = emptyTaste();
    expect(tasteFit(taste, 30, 0, 30)).toBeCloseTo(tasteFit(taste, 30, 1, 30)); // nothing seen: no preference
    for (let i = 0; i < 6; i++) noteSwipe(taste, 1, 30, true);
    for (let i = 0; i < 6; i++) noteSwipe(taste, 0, 30, false);
    expect(tasteFit(taste, 30, 1, 30)).toBeGreaterThan(0.8);
    expect(tasteFit(taste, 30, 0, 30)).toBeLessThan(0.2);
  });
  it('prefers ages near those it liked, or near its own until it liked a few', () => {
    const fresh = emptyTaste();
    expect(tasteFit(fresh, 30, 1, 31)).toBeGreaterThan(tasteFit(fresh, 30, 1, 55));
    const taste = emptyTaste();
    for (const age of [50, 52, 54]) noteSwipe(taste, 1, age, true);
    expect(tasteFit(taste, 30, 1, 52)).toBeGreaterThan(tasteFit(taste, 30, 1, 30));
  });
  it('survives its stored form, and a damaged one reads as empty', () => {
    const taste = emptyTaste();
    noteSwipe(taste, 2, 40, true);
    noteSwipe(taste, 3, 22, false);
    expect(decodeTaste(encodeTaste(taste))).toEqual(taste);
    expect(decodeTaste('1,2,x')).toEqual(emptyTaste());
    expect(decodeTaste(null)).toEqual(emptyTaste());
  });
  it('reads an age from a stored birthdate', () => {
    expect(ageOfBirth(19900517, new Date('2026-05-16T12:00:00Z'))).toBe(35);
    expect(ageOfBirth(19900517, new Date('2026-05-17T12:00:00Z'))).toBe(36);
  });
});

describe('a score and its breakdown', () => {
  it('adds the liked-you lift, enough to put a liker above an equal non-liker and above a good fit that did not like', () => {
    const liked = scoreBreakdown({ ...base, likedYou: true });
    const not = scoreBreakdown(base);
    expect(liked.total - not.total).toBeCloseTo(LIKED_YOU_BONUS);
    const goodFit = scoreBreakdown({ ...base, viewerFit: 0.9, candidateFit: 0.9, lastActiveMs: 0 });
    const weakLiker = scoreBreakdown({ ...base, shared: 0, viewerFit: 0.1, candidateFit: 0.1, likedYou: true });
    expect(weakLiker.total).toBeGreaterThan(goodFit.total);
  });
  it('gives recency up to its weight, fading to nothing over RECENCY_DAYS', () => {
    expect(recencyPart(undefined, 0)).toBe(0);
    expect(recencyPart(0, 0)).toBe(RECENCY_WEIGHT);
    expect(recencyPart(0, (RECENCY_DAYS / 2) * DAY)).toBeCloseTo(RECENCY_WEIGHT / 2);
    expect(recencyPart(0, RECENCY_DAYS * DAY)).toBe(0);
  });
  it('squashes the interests part below a quarter, growing with the shared sum', () => {
    expect(interestsPart(0)).toBe(0);
    expect(interestsPart(2000)).toBeLessThan(interestsPart(8000));
    expect(interestsPart(1e9)).toBeLessThan(0.25);
  });
  it('totals its parts, and is stored as whole units of 1/SCORE_SCALE', () => {
    const parts = scoreBreakdown({ ...base, likedYou: true, lastActiveMs: 0, nowMs: DAY });
    expect(parts.total).toBeCloseTo(parts.interests + parts.reciprocal + parts.recency + LIKED_YOU_BONUS, 3);
    const stored = rankScore({ ...base, likedYou: true, lastActiveMs: 0, nowMs: DAY });
    expect(Number.isInteger(stored)).toBe(true);
    expect(stored).toBe(Math.round(parts.total * SCORE_SCALE));
  });
});
