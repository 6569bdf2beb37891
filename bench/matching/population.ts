import { readFileSync } from 'node:fs';
import { normalizeInterests } from '../../src/features/accounts/interest-schemas.js';
import { prng } from '../lib/profiles.js';
import { GENDERS as GENDERS_OF_SERVICE } from '../../src/features/accounts/account-schemas.js';

export { prng };

/**
 * The simulated population of the matching bench: each agent has hidden concepts, writes them as surface
 * forms (bench/matching/interest-concepts.json), and has an age, a gender, the genders and age range it wants,
 * and a selectivity (how likely it likes a candidate that fits its taste). Only `interests` is visible to a
 * ranking; the rest is the hidden taste that decides the swipes.
 */
export type SimAgent = {
  id: number;
  age: number;
  gender: Gender;
  wants: ReadonlySet<Gender>;
  minAge: number;
  maxAge: number;
  selectivity: number;
  /** Hidden concept indices into the concept table. */
  concepts: ReadonlySet<number>;
  /** What the profile shows: one surface form per concept, normalised as the service normalises interests. */
  interests: readonly string[];
};

export type Gender = 'woman' | 'man' | 'nonbinary';

/** A simulated gender's place in the service's GENDERS (what a stored profile holds). */
export const genderIndex = (gender: Gender): number => GENDERS_OF_SERVICE.indexOf(gender);

const CONCEPT_FILE = new URL('./interest-concepts.json', import.meta.url);

/** The concept table: each concept's surface forms, its name first. */
export function loadConcepts(): string[][] {
  return (JSON.parse(readFileSync(CONCEPT_FILE, 'utf8')) as { concepts: string[][] }).concepts;
}

/** A uniform number in [0, 1) fixed by (seed, a, b): the same swipe decides the same in every ranking. */
export function pairUniform(seed: number, a: number, b: number): number {
  let h = (seed ^ Math.imul(a + 1, 0x9e3779b1) ^ Math.imul(b + 1, 0x85ebca77)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

const GENDERS: Gender[] = ['woman', 'man', 'nonbinary'];

export function buildPopulation(size: number, seed: number, concepts: readonly (readonly string[])[] = loadConcepts()): SimAgent[] {
  const random = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  // Concept popularity is skewed (Zipf-like, exponent 0.8), so some interests are common and some rare.
  const popularity = concepts.map((_, rank) => 1 / Math.pow(rank + 1, 0.8));
  const total = popularity.reduce((sum, p) => sum + p, 0);
  const drawConcept = () => {
    let x = random() * total;
    for (let i = 0; i < popularity.length; i++) if ((x -= popularity[i]!) < 0) return i;
    return popularity.length - 1;
  };
  const agents: SimAgent[] = [];
  for (let id = 0; id < size; id++) {
    const roll = random();
    const gender: Gender = roll < 0.46 ? 'woman' : roll < 0.92 ? 'man' : 'nonbinary';
    const wantRoll = random();
    const other: Gender = gender === 'woman' ? 'man' : gender === 'man' ? 'woman' : pick(['woman', 'man'] as const);
    const wants = new Set<Gender>(wantRoll < 0.7 ? [other] : wantRoll < 0.85 ? [gender] : wantRoll < 0.95 ? [other, 'nonbinary'] : GENDERS);
    const age = 18 + Math.floor(random() * 43);
    const minAge = Math.max(18, age - 2 - Math.floor(random() * 10));
    const maxAge = age + 2 + Math.floor(random() * 10);
    const count = 3 + Math.floor(random() * 6);
    const held = new Set<number>();
    while (held.size < count) held.add(drawConcept());
    const interests = normalizeInterests([...held].map((c) => pick(concepts[c]!)));
    agents.push({ id, age, gender, wants, minAge, maxAge, selectivity: 0.15 + random() * 0.75, concepts: held, interests });
  }
  return agents;
}

/** The chance that `viewer` likes `candidate`, by hidden taste only (never the profile strings). */
export function likeChance(viewer: SimAgent, candidate: SimAgent): number {
  const fits = viewer.wants.has(candidate.gender) && candidate.age >= viewer.minAge && candidate.age <= viewer.maxAge;
  if (!fits) return 0.01;
  let overlap = 0;
  for (const c of candidate.concepts) if (viewer.concepts.has(c)) overlap++;
  return viewer.selectivity * (overlap === 0 ? 0.1 : Math.min(1, 0.4 + 0.2 * overlap));
}
