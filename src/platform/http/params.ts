import { errors, type FieldProblem } from '../core/errors.js';
import { ID_MESSAGE, idOfText } from '../core/id-schema.js';

/** A positive integer id from a path parameter (platform/core/id-schema.ts); 400 naming the parameter otherwise. */
export function idParam(value: string | undefined, name: string): number {
  const id = idOfText(value);
  if (id === undefined) throw errors.invalidField(name, ID_MESSAGE);
  return id;
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
