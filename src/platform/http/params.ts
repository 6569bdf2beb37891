import { errors, type FieldProblem } from '../core/errors.js';

const ID_RE = /^[1-9]\d{0,15}$/;

/** A positive integer id from a path parameter; 400 naming the parameter otherwise. */
export function idParam(value: string | undefined, name: string): number {
  if (!value || !ID_RE.test(value) || !Number.isSafeInteger(Number(value))) {
    throw errors.invalidField(name, 'must be a positive integer id');
  }
  return Number(value);
}

const NO_LIST_PARAMS: ReadonlySet<string> = new Set();

/**
 * The query string as an object for validation. A parameter named in `listParams` (one that takes a comma
 * list) may be repeated, its values joined with commas; any other parameter given more than once is
 * refused with 400 naming it, on every route alike, rather than one of its values being picked silently.
 */
export function queryParams(query: URLSearchParams, listParams: ReadonlySet<string> = NO_LIST_PARAMS): Record<string, string> {
  const input: Record<string, string> = {};
  const repeated: FieldProblem[] = [];
  for (const name of new Set(query.keys())) {
    const values = query.getAll(name);
    if (values.length > 1 && !listParams.has(name)) repeated.push({ field: name, message: 'must be given at most once' });
    input[name] = values.join(',');
  }
  if (repeated.length > 0) throw errors.validation(repeated);
  return input;
}
