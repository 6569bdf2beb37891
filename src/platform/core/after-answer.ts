/**
 * Runs `work` after the answer of the request being handled is written, for what need not delay it (ranking
 * signals, hints for spreading): a route's answer is written in the microtasks right after its handler
 * settles, and this runs in the event loop's next check phase. Call it once nothing is left to await before
 * the answer. `work` handles its own failures; one it lets escape is dropped.
 */
export function afterAnswer(work: () => Promise<unknown>): void {
  setImmediate(() => void work().catch(() => undefined));
}
