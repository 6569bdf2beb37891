/**
 * Answers of a read shared for a short time within this process: every call with the same key within
 * `ttlMs` of the first, concurrent ones included, gets the first call's answer, so a popular read reaches
 * the store once per period however many clients ask. A failed read is not kept. At most `maxEntries`
 * answers are held: lapsed ones are dropped as new ones come, and past the cap the oldest go first (all
 * live equally long, so the oldest is the first to lapse anyway). `ttlMs` 0 shares nothing.
 */
export class ReadCache {
  private readonly entries = new Map<string, { until: number; answer: Promise<unknown> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1_000,
  ) {}

  get<T>(key: string, read: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return read();
    const now = Date.now();
    const kept = this.entries.get(key);
    if (kept && kept.until > now) return kept.answer as Promise<T>;
    this.entries.delete(key);
    this.dropOldest(now);
    const answer = read();
    this.entries.set(key, { until: now + this.ttlMs, answer });
    answer.catch(() => {
      if (this.entries.get(key)?.answer === answer) this.entries.delete(key);
    });
    return answer;
  }

  /** Forgets the answer kept for `key`: the next call reads again. */
  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Forgets every answer kept. */
  clear(): void {
    this.entries.clear();
  }

  /** Drops lapsed answers, and the oldest ones while one more would exceed `maxEntries`. */
  private dropOldest(now: number) {
    for (const [key, entry] of this.entries) {
      if (entry.until > now && this.entries.size < this.maxEntries) break;
      this.entries.delete(key);
    }
  }
}
