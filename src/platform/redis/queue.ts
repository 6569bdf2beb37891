/**
 * First in, first out without the cost of `Array#shift`. A slot is cleared as it is taken, so that the
 * queue does not keep a taken item alive (long enough for it to be promoted to the old generation).
 */
export class Queue<T> {
  private items: (T | undefined)[] = [];
  private head = 0;

  push(item: T) {
    this.items.push(item);
  }

  peek(): T | undefined {
    return this.items[this.head];
  }

  shift(): T | undefined {
    const item = this.items[this.head];
    this.items[this.head++] = undefined;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  /** Everything still queued, leaving the queue empty. */
  drain(): T[] {
    const rest = this.items.slice(this.head) as T[];
    this.items = [];
    this.head = 0;
    return rest;
  }
}
