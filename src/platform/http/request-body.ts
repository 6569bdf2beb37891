import { errors } from '../core/errors.js';

export const MAX_BODY_BYTES = 64 * 1024;

/** Whether a Content-Type header names JSON (`application/json`, any parameters, or a `+json` type). */
export function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false;
  const type = value.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

/** Parses a JSON object body; throws the catalogued 400/415 errors otherwise. */
export function parseJsonObject(raw: Buffer, contentType: string | undefined): Record<string, unknown> {
  if (raw.length === 0) throw errors.invalidJson('The request body is empty; send a JSON object.');
  if (!isJsonContentType(contentType)) throw errors.unsupportedMediaType();
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
  } catch (error) {
    const detail = error instanceof SyntaxError ? `: ${error.message}` : ' (it is not valid UTF-8)';
    throw errors.invalidJson(`The request body is not valid JSON${detail}.`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw errors.invalidJson('The request body must be a JSON object, such as {"key": "value"}.');
  }
  return value as Record<string, unknown>;
}
