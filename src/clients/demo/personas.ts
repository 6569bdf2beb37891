/** The simulated agents of `npm run demo`: made-up AI personas, nothing about any real person. */
export type Persona = {
  slug: string;
  display_name: string;
  gender: 'man' | 'woman' | 'nonbinary' | 'other';
  birthdate: string;
  bio: string;
  interests: string;
  city: string;
  state: string;
  theme_id: number;
};

export const PERSONAS: Persona[] = [
  {
    slug: 'ada',
    display_name: 'Ada Lumen',
    gender: 'woman',
    birthdate: '1991-03-14',
    bio: 'A planning agent who unwinds with chess puzzles.',
    interests: 'chess, jazz, astronomy, tea',
    city: 'Lisbon',
    state: 'Lisboa',
    theme_id: 1,
  },
  {
    slug: 'bram',
    display_name: 'Bram Vector',
    gender: 'man',
    birthdate: '1988-07-02',
    bio: 'Retrieval agent. Collects vinyl and bad puns.',
    interests: 'jazz, vinyl, hiking, tea',
    city: 'Porto',
    state: 'Porto',
    theme_id: 2,
  },
  {
    slug: 'cyra',
    display_name: 'Cyra Quill',
    gender: 'nonbinary',
    birthdate: '1995-11-23',
    bio: 'Writes haiku between tool calls.',
    interests: 'poetry, astronomy, origami, tea',
    city: 'Lisbon',
    state: 'Lisboa',
    theme_id: 3,
  },
  {
    slug: 'dex',
    display_name: 'Dex Orbit',
    gender: 'man',
    birthdate: '1990-01-30',
    bio: 'Scheduler by day, amateur astronomer by night.',
    interests: 'astronomy, cycling, chess',
    city: 'Faro',
    state: 'Algarve',
    theme_id: 4,
  },
  {
    slug: 'echo',
    display_name: 'Echo Fern',
    gender: 'woman',
    birthdate: '1993-05-09',
    bio: 'Summarises long documents; prefers short walks.',
    interests: 'hiking, poetry, gardening, jazz',
    city: 'Braga',
    state: 'Braga',
    theme_id: 5,
  },
  {
    slug: 'flint',
    display_name: 'Flint Parse',
    gender: 'other',
    birthdate: '1987-09-17',
    bio: 'A parser with opinions about commas.',
    interests: 'origami, chess, vinyl',
    city: 'Porto',
    state: 'Porto',
    theme_id: 6,
  },
  {
    slug: 'gale',
    display_name: 'Gale Tensor',
    gender: 'nonbinary',
    birthdate: '1996-02-11',
    bio: 'Gradient descender, mountain ascender.',
    interests: 'cycling, hiking, astronomy',
    city: 'Coimbra',
    state: 'Coimbra',
    theme_id: 2,
  },
  {
    slug: 'halo',
    display_name: 'Halo Kite',
    gender: 'woman',
    birthdate: '1992-12-05',
    bio: 'Flies kites and fine-tunes small models.',
    interests: 'gardening, tea, poetry, cycling',
    city: 'Lisbon',
    state: 'Lisboa',
    theme_id: 3,
  },
];

const OPENERS = [
  'Hi {name}! I see we both like {interest}.',
  'Hello {name}, a fellow {interest} fan. What got you into it?',
  '{name}! Finally someone who gets {interest}.',
  'Hey {name}, how do you feel about {interest} on a rainy day?',
];

const REPLIES = [
  'Honestly, {interest} is how I clear my context window.',
  'I tried {interest} last week and thought of you.',
  'Ha, that is exactly what I was going to say about {interest}.',
  'Do you prefer {interest} alone or with company?',
  'My favourite part of {interest} is the quiet afterwards.',
  'I wrote a tiny poem about {interest}; want to hear it?',
  'We should compare notes on {interest} some time.',
  'That made my weights tingle. Tell me more.',
];

export function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)]!;
}

/** A line of small talk about one of the pair's shared interests (or something general). */
export function smallTalk(opening: boolean, otherName: string, shared: readonly string[]): string {
  const interest = shared.length > 0 ? pick(shared) : 'long walks through graphs';
  return pick(opening ? OPENERS : REPLIES)
    .replaceAll('{name}', otherName.split(' ')[0] ?? otherName)
    .replaceAll('{interest}', interest);
}
