/**
 * A small JSON Schema (2020-12) checker for the keywords the service's OpenAPI document uses, so a test can
 * ask what a strict client would: does this value fit the document's schema? `$ref` to
 * `#/components/schemas/…`, `type`, `enum`, `const`, `properties`, `required`, `additionalProperties`,
 * `items`, `prefixItems`, `minItems`/`maxItems`, `minLength`/`maxLength` (in code points, as JSON Schema counts), `pattern`
 * (an ECMA-262 expression with the `u` flag), `format` (`date`, `date-time`, `email`), `minimum`/`maximum`,
 * `anyOf`, `oneOf`, `allOf`. An unknown keyword is a failure of the checker, never ignored silently.
 */
type Schema = Record<string, unknown>;
type Document = { components?: { schemas?: Record<string, Schema> } };

const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples', '$schema', 'id', 'deprecated', 'readOnly', 'writeOnly']);

const typeOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'number' && Number.isInteger(value) ? 'integer' : typeof value;

/** RFC 3339 full-date: a real calendar date. */
function isDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const FORMATS: Record<string, (value: string) => boolean> = {
  date: isDate,
  'date-time': (value) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(value) && isDate(value.slice(0, 10)),
  email: (value) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value),
};

/** Every way `value` breaks `schema` (resolved against `doc`), each as `<path>: <problem>`; [] when it fits. */
export function schemaProblems(doc: Document, schema: Schema, value: unknown, path = '$'): string[] {
  const problems: string[] = [];
  const fail = (problem: string) => problems.push(`${path}: ${problem}`);
  for (const [keyword, rule] of Object.entries(schema)) {
    if (ANNOTATIONS.has(keyword)) continue;
    switch (keyword) {
      case '$ref': {
        const name = String(rule).replace('#/components/schemas/', '');
        const target = doc.components?.schemas?.[name];
        if (!target) fail(`$ref ${String(rule)} names no schema`);
        else problems.push(...schemaProblems(doc, target, value, path));
        break;
      }
      case 'type': {
        const types = Array.isArray(rule) ? (rule as string[]) : [rule as string];
        const actual = typeOf(value);
        if (!types.includes(actual) && !(actual === 'integer' && types.includes('number'))) fail(`is ${actual}, not ${types.join(' or ')}`);
        break;
      }
      case 'enum':
        if (!(rule as unknown[]).some((option) => JSON.stringify(option) === JSON.stringify(value)))
          fail(`${JSON.stringify(value)} is not one of ${JSON.stringify(rule)}`);
        break;
      case 'const':
        if (JSON.stringify(rule) !== JSON.stringify(value)) fail(`is not ${JSON.stringify(rule)}`);
        break;
      case 'properties':
        if (typeOf(value) === 'object') {
          for (const [name, property] of Object.entries(rule as Record<string, Schema>)) {
            const field = (value as Record<string, unknown>)[name];
            if (field !== undefined) problems.push(...schemaProblems(doc, property, field, `${path}.${name}`));
          }
        }
        break;
      case 'required':
        if (typeOf(value) === 'object') for (const name of rule as string[]) if (!(name in (value as object))) fail(`lacks ${name}`);
        break;
      case 'additionalProperties':
        if (typeOf(value) === 'object') {
          const known = Object.keys(schema.properties ?? {});
          for (const [name, field] of Object.entries(value as Record<string, unknown>)) {
            if (known.includes(name)) continue;
            if (rule === false) fail(`has ${name}, which the schema does not allow`);
            else if (typeof rule === 'object') problems.push(...schemaProblems(doc, rule as Schema, field, `${path}.${name}`));
          }
        }
        break;
      case 'prefixItems':
        if (Array.isArray(value))
          (rule as Schema[]).forEach((item, i) => i < value.length && problems.push(...schemaProblems(doc, item, value[i], `${path}[${i}]`)));
        break;
      case 'items': {
        // After the items prefixItems gives (a tuple's `items: false` allows none more).
        const from = Array.isArray(schema.prefixItems) ? schema.prefixItems.length : 0;
        if (!Array.isArray(value)) break;
        value.slice(from).forEach((item, i) => {
          if (rule === false) fail(`has an item at ${from + i}, past the ${from} the schema allows`);
          else problems.push(...schemaProblems(doc, rule as Schema, item, `${path}[${from + i}]`));
        });
        break;
      }
      case 'minItems':
        if (Array.isArray(value) && value.length < (rule as number)) fail(`has ${value.length} items, fewer than ${String(rule)}`);
        break;
      case 'maxItems':
        if (Array.isArray(value) && value.length > (rule as number)) fail(`has ${value.length} items, more than ${String(rule)}`);
        break;
      case 'minLength':
        if (typeof value === 'string' && [...value].length < (rule as number)) fail(`is shorter than ${String(rule)}`);
        break;
      case 'maxLength':
        if (typeof value === 'string' && [...value].length > (rule as number)) fail(`is longer than ${String(rule)}`);
        break;
      case 'pattern':
        if (typeof value === 'string' && !new RegExp(rule as string, 'u').test(value)) fail(`does not match ${String(rule)}`);
        break;
      case 'format': {
        const check = FORMATS[rule as string];
        if (!check) fail(`format ${String(rule)} is not known to this checker`);
        else if (typeof value === 'string' && !check(value)) fail(`is not a ${String(rule)}`);
        break;
      }
      case 'minimum':
        if (typeof value === 'number' && value < (rule as number)) fail(`is below ${String(rule)}`);
        break;
      case 'maximum':
        if (typeof value === 'number' && value > (rule as number)) fail(`is above ${String(rule)}`);
        break;
      case 'anyOf':
      case 'oneOf': {
        const each = (rule as Schema[]).map((option) => schemaProblems(doc, option, value, path));
        const fitting = each.filter((found) => found.length === 0).length;
        if (fitting === 0) {
          // The nearest option's problems say what is wrong (of a union by `type`, the option of the value's type).
          const nearest = each.reduce((best, found) => (found.length < best.length ? found : best));
          fail(`fits none of ${keyword}; the nearest option: ${nearest.join('; ')}`);
        } else if (keyword === 'oneOf' && fitting > 1) fail(`fits ${fitting} options of oneOf, not exactly one`);
        break;
      }
      case 'allOf':
        for (const option of rule as Schema[]) problems.push(...schemaProblems(doc, option, value, path));
        break;
      default:
        fail(`keyword ${keyword} is not known to this checker`);
    }
  }
  return problems;
}
