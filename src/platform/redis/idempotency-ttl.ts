/** How long a write made with an Idempotency-Key is remembered. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
