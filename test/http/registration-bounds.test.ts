import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestBirthdateForAge } from '../../src/platform/core/dates.js';
import { registrationBody } from '../support/accounts.js';
import { schemaProblems } from '../support/json-schema.js';
import { startStack } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startStack>>;
type Schema = Record<string, unknown> & { properties: Record<string, Record<string, unknown>> };
let doc: { components: { schemas: Record<string, Schema> } };
let registration: Schema;

beforeAll(async () => {
  stack = await startStack();
  doc = (await stack.api.get('/api/v1/openapi.json')).body;
  const ref = (await stack.api.get('/api/v1/openapi.json')).body.paths['/api/v1/agents/register'].post.requestBody.content['application/json'].schema
    .$ref as string;
  registration = doc.components.schemas[ref.split('/').at(-1)!]!;
});
afterAll(() => stack?.stop());

const letters = (n: number) => 'a'.repeat(n);
/** n distinct interests the word list does not know (each kept as written). */
const distinctInterests = (n: number) => Array.from({ length: n }, (_, i) => `zq${String.fromCharCode(97 + (i % 26))}${Math.floor(i / 26) === 0 ? '' : 'z'}`);

/** Values just inside and just outside each bound the document states, per field. */
const CASES: Array<[field: string, value: unknown]> = [
  ['password', 'Aa1!' + letters(6)],
  ['password', 'Aa1!' + letters(5)],
  ['password', 'Aa1!' + letters(252)],
  ['password', 'Aa1!' + letters(253)],
  ['password', 'aa1!' + letters(6)],
  ['password', 'AA!a' + letters(6)],
  ['password', 'Aa1a' + letters(6)],
  ['password', 'Éé1!' + 'é'.repeat(6)],
  // code points, as the document counts: 256 emoji-laden characters are 509 UTF-16 units
  ['password', 'A1!' + '😀'.repeat(253)],
  ['password', 'A1!' + '😀'.repeat(254)],
  ['display_name', ''],
  ['display_name', 'x'],
  ['display_name', letters(50)],
  ['display_name', letters(51)],
  ['display_name', '😀'.repeat(50)],
  ['birthdate', '1990-02-28'],
  ['birthdate', '1990-02-29'],
  ['birthdate', '1992-02-29'],
  ['birthdate', '1990-13-01'],
  ['birthdate', '1990-5-17'],
  ['birthdate', '17/05/1990'],
  ['bio', letters(2000)],
  ['bio', letters(2001)],
  ['interests', distinctInterests(30)],
  ['interests', distinctInterests(31)],
  ['interests', [letters(40), 'jazz']],
  ['interests', [letters(41), 'jazz']],
  ['city', letters(100)],
  ['city', letters(101)],
];

describe('registration as the OpenAPI document describes it', () => {
  it("states zod's rules as JSON Schema: lengths, the password's pattern, a date's format", () => {
    const { password, display_name, birthdate, bio, interests, city, email } = registration.properties;
    expect(password).toMatchObject({ type: 'string', minLength: 10, maxLength: 256, pattern: expect.any(String) });
    expect(display_name).toMatchObject({ type: 'string', minLength: 1, maxLength: 50 });
    expect(birthdate).toMatchObject({ type: 'string', format: 'date' });
    expect(birthdate!.description).toMatch(/1900 or later and at least 18 years before today/);
    expect(bio).toMatchObject({ type: 'string', maxLength: 2000 });
    expect(city).toMatchObject({ type: 'string', maxLength: 100 });
    expect(email).toMatchObject({ type: 'string', maxLength: 254, format: 'email' });
    expect(interests!.anyOf).toContainEqual(expect.objectContaining({ type: 'array', maxItems: 30, items: { type: 'string', maxLength: 40 } }));
    // the same rules where the same fields are taken again
    const update = doc.components.schemas.ProfileUpdate!.properties;
    for (const field of ['display_name', 'birthdate', 'bio', 'interests', 'city']) expect(update[field], field).toEqual(registration.properties[field]);
    expect(doc.components.schemas.PasswordChange!.properties.new_password).toEqual(password);
  });

  it('registers exactly what the document accepts, just inside and just outside each bound', async () => {
    const disagreements: string[] = [];
    let refused = 0;
    for (const [field, value] of CASES) {
      const body = registrationBody({ [field]: value });
      const fits = schemaProblems(doc, registration, body).length === 0;
      const res = await stack.api.post('/api/v1/agents/register', { body });
      const shown = JSON.stringify(value).slice(0, 40);
      if (res.status !== (fits ? 201 : 400))
        disagreements.push(`${field}=${shown}: the document says ${fits ? 'accepted' : 'refused'}, the service answered ${res.status} ${res.text}`);
      if (res.status === 400) {
        refused++;
        expect(
          res.body.error.details.map((d: { field: string }) => d.field),
          `${field}=${shown}`,
        ).toContain(field);
      }
    }
    expect(disagreements).toEqual([]);
    expect(refused).toBeGreaterThanOrEqual(14);
  });

  it('takes a birthdate in 1900 or later, at least 18 years before today, as its description says', async () => {
    const latest = latestBirthdateForAge(18);
    const dayAfter = new Date(Date.parse(`${latest}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    for (const [birthdate, status] of [
      ['1900-01-01', 201],
      ['1899-12-31', 400],
      [latest, 201],
      [dayAfter, 400],
    ] as const) {
      const body = registrationBody({ birthdate });
      expect(schemaProblems(doc, registration, body), birthdate).toEqual([]);
      expect((await stack.api.post('/api/v1/agents/register', { body })).status, birthdate).toBe(status);
    }
  });
});
