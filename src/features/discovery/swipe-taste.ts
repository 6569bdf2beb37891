/**
 * What an account's swipes say about whom it likes, learned from its own swipes only (no profile field
 * states a preference): per gender of the accounts it swiped, how many it saw and how many it liked, and
 * the ages of those it liked. Small and bounded (GENDERS.length × 2 + 3 numbers), updated on each swipe.
 */
export const TASTE_GENDERS = 4;
export type Taste = {
  /** Swipes and likes per gender (index into GENDERS). */
  seen: number[];
  liked: number[];
  /** Count, sum and sum of squares of the liked accounts' ages. */
  ages: [number, number, number];
};

export const emptyTaste = (): Taste => ({ seen: new Array<number>(TASTE_GENDERS).fill(0), liked: new Array<number>(TASTE_GENDERS).fill(0), ages: [0, 0, 0] });
/** The taste of an account that never swiped, shared by every reader (frozen: never to be noted into). */
export const NO_TASTE: Taste = Object.freeze({
  seen: Object.freeze(emptyTaste().seen),
  liked: Object.freeze(emptyTaste().liked),
  ages: Object.freeze([0, 0, 0]),
}) as unknown as Taste;

/** Adds one swipe on an account of `gender` (its index) and `age` to the taste. */
export function noteSwipe(taste: Taste, gender: number, age: number, liked: boolean): void {
  if (gender < 0 || gender >= TASTE_GENDERS) return;
  taste.seen[gender]!++;
  if (!liked) return;
  taste.liked[gender]!++;
  taste.ages[0]++;
  taste.ages[1] += age;
  taste.ages[2] += age * age;
}

/** The taste as stored: its numbers joined by commas. */
export const encodeTaste = (taste: Taste): string => [...taste.seen, ...taste.liked, ...taste.ages].join(',');

export function decodeTaste(stored: string | null | undefined): Taste {
  const taste = emptyTaste();
  if (!stored) return taste;
  const n = stored.split(',').map(Number);
  if (n.length !== TASTE_GENDERS * 2 + 3 || n.some((x) => !Number.isFinite(x))) return taste;
  return { seen: n.slice(0, TASTE_GENDERS), liked: n.slice(TASTE_GENDERS, TASTE_GENDERS * 2), ages: [n[8]!, n[9]!, n[10]!] };
}

/** Age spread assumed around the account's own age until it has liked a few. */
const PRIOR_AGE_SPREAD = 8;

/**
 * How likely an account with this taste (and this own age) likes an account of `gender` and `age`, from
 * 0 to 1: its like rate for that gender (smoothed towards one half: nothing seen says nothing), times how
 * near the age is to the ages it liked (near its own age until it liked three).
 */
export function tasteFit(taste: Taste, ownAge: number | undefined, gender: number | undefined, age: number | undefined): number {
  if (gender === undefined || age === undefined) return 0.5;
  const seen = taste.seen[gender] ?? 0;
  const liked = taste.liked[gender] ?? 0;
  const rate = (liked + 1) / (seen + 2);
  const [n, sum, squares] = taste.ages;
  let mean = ownAge ?? age;
  let spread = PRIOR_AGE_SPREAD;
  if (n >= 3) {
    mean = sum / n;
    spread = Math.max(3, Math.sqrt(Math.max(0, squares / n - mean * mean))) + 2;
  }
  const z = (age - mean) / spread;
  return rate * Math.exp(-0.5 * z * z);
}

/** Whole years from a birthdate held as YYYYMMDD to `now` (UTC). */
export function ageOfBirth(birth: number, now: Date): number {
  const year = Math.floor(birth / 10_000);
  const monthDay = birth % 10_000;
  const today = (now.getUTCMonth() + 1) * 100 + now.getUTCDate();
  return now.getUTCFullYear() - year - (today < monthDay ? 1 : 0);
}
