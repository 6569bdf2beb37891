/**
 * The phrases of the validation library (zod's default messages, old and new), which must never reach a
 * client: every refusal is in the service's own words. "Invalid request:" is the service's own opening.
 */
export const LIBRARY_WORDS =
  /Invalid (input|option|string|element|key|union|format|email|url|uuid|date|type|literal|enum|value|discriminator|number|ISO)|expected .* received|received (undefined|null|array|object|string|number|nan|boolean)|Too (small|big)|Unrecognized key|Expected (string|number|integer|array|object|boolean)|\bNaN\b|to be [<>]=?|must match pattern/i;

/** The value of a JSON schema property, as the OpenAPI document and the MCP tools' input schemas give it. */
export type SchemaProperty = { type?: string | string[]; enum?: unknown[]; anyOf?: SchemaProperty[]; oneOf?: SchemaProperty[]; items?: SchemaProperty };

/**
 * Values of the wrong kind for a property of this declared type: a string where a number goes, a number where
 * a string goes, a list for a single value, an object, null, true, and a value outside an enum.
 */
export function wrongValues(property: SchemaProperty): unknown[] {
  const values: unknown[] = [null, { nested: 1 }, [{ nested: 1 }], true];
  if (property.anyOf || property.oneOf) return [...values, 42, [42]];
  const types = Array.isArray(property.type) ? property.type : [property.type];
  if (types.includes('integer') || types.includes('number')) values.push('abc', 1.5, [1, 2], -1);
  if (types.includes('string')) values.push(42, ['a', 'b']);
  if (types.includes('array')) values.push(42, [42]);
  if (property.items?.enum) values.push('not-one-of-them', ['not-one-of-them']);
  if (types.includes('boolean')) values.push('yes', 1);
  if (property.enum) values.push('not-one-of-them', String(property.enum[0]).toUpperCase());
  return values;
}

/**
 * Wrong values for a query parameter of this declared type, as a client could send them: a query value is
 * always text, so a free-text parameter is wrong only repeated or in bracket form (`name[key]=`).
 */
export function wrongQueryValues(schema: SchemaProperty): unknown[] {
  const values: unknown[] = [{ nested: 1 }];
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('integer') || types.includes('number')) values.push('abc', '1.5', '-1', 'null', 'true', '', ['1', '2']);
  else if (schema.enum) values.push('not-one-of-them', 'null', '', [String(schema.enum[0]), String(schema.enum.at(-1))]);
  else if (schema.items?.enum) values.push('not-one-of-them', 'null');
  else if (!types.includes('array')) values.push(['a', 'b']);
  return values;
}
