import { script } from './script.js';
import type { Scripts } from './scripts.js';

/** lua/reserve_ids-1.lua: the counter after the reservation (the last value reserved). */
export const reserveIds = script('reserve_ids', Number);

/**
 * Ids reserved from a Redis counter in blocks, handed out one per caller. A script that may create a
 * record is told the record's id (and so its key) before it runs; an id it did not use is given back
 * for the next caller. Blocks are disjoint between processes, so ids stay unique; gaps are harmless. A
 * block is reserved as an acknowledged write (lua/reserve_ids-1.lua), so a failover cannot hand its ids out again.
 */
export class IdBlock {
  private readonly free: number[] = [];
  private refill?: Promise<void>;

  constructor(
    private readonly scripts: Scripts,
    private readonly counterKey: string,
    private readonly blockSize = 64,
    /** The id given out for the counter's n-th value (ids may encode more than a count). */
    private readonly idOf: (count: number) => number = (count) => count,
  ) {}

  /** An id: at once (no promise) while the block lasts, else once the next block is reserved. */
  take(): number | Promise<number> {
    return this.free.pop() ?? this.takeAfterRefill();
  }

  private async takeAfterRefill(): Promise<number> {
    while (this.free.length === 0) {
      this.refill ??= this.reserve().finally(() => {
        this.refill = undefined;
      });
      await this.refill;
    }
    return this.free.pop()!;
  }

  give(id: number) {
    this.free.push(id);
  }

  private async reserve() {
    const last = await this.scripts.runAcknowledged(reserveIds, [this.counterKey], [this.blockSize]);
    // Pushed highest first, so the lowest id is taken first.
    for (let count = last; count > last - this.blockSize; count--) this.free.push(this.idOf(count));
  }
}
