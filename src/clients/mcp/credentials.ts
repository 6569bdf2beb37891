/** Fields that hold a credential: never in a tool's answer, whatever the API's answer holds. */
export const CREDENTIAL_FIELDS: ReadonlySet<string> = new Set(['token', 'access_token', 'refresh_token', 'secret', 'password']);

/** `value` without any credential field, at any depth. */
export function withoutCredentials(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCredentials);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !CREDENTIAL_FIELDS.has(key))
      .map(([key, field]) => [key, withoutCredentials(field)]),
  );
}

type JsonSchema = Record<string, unknown>;

/** A JSON Schema of an answer without its credential fields, at any depth: what a tool's answer holds. */
export function schemaWithoutCredentials(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(schemaWithoutCredentials);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema as JsonSchema)) {
    if (key === 'properties') {
      out.properties = Object.fromEntries(
        Object.entries(value as JsonSchema)
          .filter(([name]) => !CREDENTIAL_FIELDS.has(name))
          .map(([name, property]) => [name, schemaWithoutCredentials(property)]),
      );
    } else if (key === 'required' && Array.isArray(value)) {
      out.required = value.filter((name) => !CREDENTIAL_FIELDS.has(String(name)));
    } else out[key] = schemaWithoutCredentials(value);
  }
  return out;
}
