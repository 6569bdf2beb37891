import { errors } from '../domain/errors.js';

const ID_RE = /^[1-9]\d{0,15}$/;

/** A positive integer id from a path parameter; 400 naming the parameter otherwise. */
export function idParam(value: string | undefined, name: string): number {
  if (!value || !ID_RE.test(value) || !Number.isSafeInteger(Number(value))) {
    throw errors.invalidField(name, 'must be a positive integer id');
  }
  return Number(value);
}
