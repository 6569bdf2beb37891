/** How long closing the Redis connections may take on shutdown before they are cut (Redis may be unreachable). */
export const REDIS_CLOSE_TIMEOUT_MS = 2_000;

/** Waits for `work` to settle, or until `deadline` (a Date.now() value), whichever comes first. */
export async function settleBy(deadline: number, work: Promise<unknown> | undefined): Promise<void> {
  if (!work) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    work.then(
      () => {},
      () => {},
    ),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - Date.now())))),
  ]);
  clearTimeout(timer);
}
