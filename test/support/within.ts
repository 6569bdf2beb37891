/**
 * What `promise` resolves to, or a rejection naming `what` once `ms` have passed without it. For a wait
 * on one event (a close, an exit); the bound is generous, chosen far from both the expected time and any
 * time the code under test would wait instead, so it is never what a test measures.
 */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
