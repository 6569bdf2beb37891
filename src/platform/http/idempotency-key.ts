import { errors } from '../core/errors.js';

const KEY_RE = /^[\x21-\x7E]{1,255}$/;

/** The optional `Idempotency-Key` header: 1–255 visible ASCII characters (a UUID is a good choice). */
export function idempotencyKey(headers: Record<string, string>): string | undefined {
  const value = headers['idempotency-key'];
  if (value === undefined) return undefined;
  if (!KEY_RE.test(value)) {
    throw errors.invalidField('Idempotency-Key', 'must be 1–255 visible ASCII characters without spaces, such as a UUID');
  }
  return value;
}
