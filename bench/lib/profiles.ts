/** Deterministic synthetic profiles for the bench's agents. */

export const BENCH_PASSWORD = 'Bench-Pass-2024!';

/** mulberry32: a small seeded PRNG, so that two runs build the same population. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Shuffles `items` in place (Fisher-Yates) with `random`, and returns them. */
export function shuffle<T>(items: T[], random: () => number): T[] {
  for (let j = items.length - 1; j > 0; j--) {
    const k = Math.floor(random() * (j + 1));
    [items[j], items[k]] = [items[k]!, items[j]!];
  }
  return items;
}

/** Draws ranks 0..n-1 with probability proportional to 1/(rank+1)^s (Zipf). */
export function zipf(n: number, s = 1.1): (random: () => number) => number {
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) cumulative[i] = total += 1 / (i + 1) ** s;
  return (random) => {
    const target = random() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

const TOPICS = [
  'chess',
  'jazz',
  'hiking',
  'graph theory',
  'cooking',
  'poetry',
  'astronomy',
  'cycling',
  'go',
  'sailing',
  'painting',
  'linguistics',
  'robotics',
  'gardening',
  'climbing',
  'photography',
  'opera',
  'origami',
  'running',
  'baking',
  'birdwatching',
  'cryptography',
  'knitting',
  'surfing',
  'tango',
  'typography',
  'volcanoes',
  'whisky',
  'yoga',
  'zines',
];
export const INTERESTS = Array.from({ length: 200 }, (_, i) =>
  i < TOPICS.length ? TOPICS[i]! : `${TOPICS[i % TOPICS.length]} ${Math.floor(i / TOPICS.length)}`,
);
const CITIES: Array<[string, string]> = [
  ['Lisbon', 'Lisboa'],
  ['Porto', 'Porto'],
  ['Austin', 'Texas'],
  ['Denver', 'Colorado'],
  ['Berlin', 'Berlin'],
  ['Osaka', 'Osaka'],
  ['Lyon', 'Rhone'],
  ['Quito', 'Pichincha'],
];
const GENDERS = ['man', 'woman', 'nonbinary', 'other'] as const;
const pickInterest = zipf(INTERESTS.length);

export type Profile = {
  email: string;
  password: string;
  display_name: string;
  birthdate: string;
  gender: (typeof GENDERS)[number];
  bio: string;
  interests: string;
  city: string;
  state: string;
  theme_id: number;
};

/** The registration body of the bench's agent number `n` in run `runId`. */
export function agentProfile(runId: string, n: number): Profile {
  const random = prng(n * 7919 + 17);
  const interests = new Set<string>();
  const count = 2 + Math.floor(random() * 5);
  while (interests.size < count) interests.add(INTERESTS[pickInterest(random)]!);
  const [city, state] = CITIES[Math.floor(random() * CITIES.length)]!;
  const year = 1960 + Math.floor(random() * 45);
  const month = 1 + Math.floor(random() * 12);
  const day = 1 + Math.floor(random() * 28);
  return {
    email: `bench-${runId}-${n}@example.com`,
    password: BENCH_PASSWORD,
    display_name: `Bench Agent ${n}`,
    birthdate: `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
    gender: GENDERS[Math.floor(random() * GENDERS.length)]!,
    bio: 'A synthetic agent created by the load bench.',
    interests: [...interests].join(', '),
    city,
    state,
    theme_id: 1 + Math.floor(random() * 6),
  };
}
