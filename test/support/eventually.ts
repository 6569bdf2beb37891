/**
 * Polls `probe` until it holds, and returns what it returned: it holds when it neither throws nor returns
 * (or resolves to) `false`, so a probe can be a condition (`() => count === 0`), a finder returning the
 * thing or `false`, or a block of `expect`s. Fails after `timeoutMs`, naming `what` and the last error.
 * The generous default suits a busy, shared machine; the bound is not what a test asserts.
 */
export async function eventually<T>(what: string, probe: () => T | Promise<T>, timeoutMs = 10_000): Promise<Exclude<T, false>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let lastError: unknown;
    try {
      const result = await probe();
      if (result !== false) return result as Exclude<T, false>;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const cause = lastError instanceof Error ? `: ${lastError.message}` : '';
      throw new Error(`${what}: not within ${timeoutMs} ms${cause}`, { cause: lastError });
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
