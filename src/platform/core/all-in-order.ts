/**
 * Waits for every one of `promises` (started together, so their Redis calls share a round trip), then
 * throws the first rejection in the order given: the answer's error is the one it would be were they
 * awaited one after another, whichever reply came back first.
 */
export async function allInOrder<T extends readonly unknown[]>(promises: { readonly [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(promises);
  for (const outcome of settled) if (outcome.status === 'rejected') throw outcome.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value) as unknown as T;
}
