export const DAY_MS = 24 * 60 * 60 * 1000;

/** "24 hours", "1 minute", "90 seconds": a whole number of the largest unit that fits (hours at most). */
export function duration(seconds: number): string {
  for (const [unit, size] of [
    ['hour', 3_600],
    ['minute', 60],
  ] as const) {
    if (seconds >= size && seconds % size === 0) return `${seconds / size} ${unit}${seconds === size ? '' : 's'}`;
  }
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parses `YYYY-MM-DD` as a real calendar date; undefined for anything else (2023-02-30 included). */
export function parseCalendarDate(text: string): { year: number; month: number; day: number } | undefined {
  const m = DATE_RE.exec(text);
  if (!m) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1) return undefined;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > daysInMonth) return undefined;
  return { year, month, day };
}

/** Whole years between a birthdate and `now`, in UTC. */
export function ageOn(birthdate: string, now: Date = new Date()): number {
  const d = parseCalendarDate(birthdate);
  if (!d) throw new Error(`not a calendar date: ${birthdate}`);
  let age = now.getUTCFullYear() - d.year;
  const month = now.getUTCMonth() + 1;
  if (month < d.month || (month === d.month && now.getUTCDate() < d.day)) age -= 1;
  return age;
}

/** The latest birthdate (YYYY-MM-DD) of someone who is at least `years` old on `now`. */
export function latestBirthdateForAge(years: number, now: Date = new Date()): string {
  const y = now.getUTCFullYear() - years;
  const m = now.getUTCMonth() + 1;
  let d = now.getUTCDate();
  const daysInMonth = new Date(Date.UTC(y, m, 0)).getUTCDate();
  if (d > daysInMonth) d = daysInMonth; // born on 29 Feb: of age on 28 Feb in common years
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}
