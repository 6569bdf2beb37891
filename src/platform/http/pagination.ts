import { z } from 'zod';
import { errors } from '../core/errors.js';
import type { Page, PageRequest } from '../core/page.js';
import * as page from '../core/page-params.js';
import { BAD_CURSOR, DEFAULT_LIMIT, MAX_LIMIT } from '../core/page-params.js';
import { validate } from '../core/validation.js';
import { queryParams } from './params.js';

/** The `limit` query parameter (platform/core/page-params.ts): its schema is the integer it stands for (a query string is text on the wire). */
export const limitParam = page.limitParam.meta({ description: `Page size, 1–${MAX_LIMIT} (default ${DEFAULT_LIMIT}).` });

/** The `cursor` query parameter (platform/core/page-params.ts). */
export const cursorParam = page.cursorParam.meta({ description: 'The next_cursor of the previous page.' });

/** `limit` and `cursor`, to spread into a list endpoint's query schema. */
export const pageParams = { limit: limitParam, cursor: cursorParam };
export const pageQuerySchema = z.strictObject(pageParams);

/** An opaque cursor: base64url of JSON. */
export function encodeCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

/**
 * The value inside a cursor; 400 `validation_failed` naming `cursor` for anything this service did not
 * give out (bad base64, bad JSON, or a value `isValid` refuses).
 */
export function decodeCursor<T>(cursor: string, isValid: (value: unknown) => value is T = (v): v is T => v !== undefined): T {
  let value: unknown;
  try {
    if (!/^[\w-]+$/.test(cursor)) throw new Error('not base64url');
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw errors.invalidField('cursor', BAD_CURSOR);
  }
  if (!isValid(value)) throw errors.invalidField('cursor', BAD_CURSOR);
  return value;
}

/**
 * The page a list request asks for: its validated `limit`, and its `cursor` decoded (400 for one this
 * service did not give out) into the position the list resumes after.
 */
export function pageRequest<C>({ limit, cursor }: { limit: number; cursor?: string }, isCursor: (value: unknown) => value is C): PageRequest<C> {
  return { limit, after: cursor === undefined ? undefined : decodeCursor(cursor, isCursor) };
}

/** The page asked for by a list route that takes only `limit` and `cursor` in its query. */
export function pageQuery<C>(query: URLSearchParams, isCursor: (value: unknown) => value is C): PageRequest<C> {
  return pageRequest(validate(pageQuerySchema, queryParams(query), 'query'), isCursor);
}

/**
 * The list envelope of a page: `{items, next_cursor}`, the next position encoded (null on the last page).
 * `toCursor` gives the value a cursor carries when it is not the position itself.
 */
export function toPage<T, C>(page: Page<T, C>, toCursor: (position: C) => unknown = (position) => position): { items: T[]; next_cursor: string | null } {
  const { items, next } = page;
  return { items, next_cursor: next === null || next === undefined ? null : encodeCursor(toCursor(next)) };
}
