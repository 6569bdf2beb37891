import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonResponse } from '../../src/clients/json-client.js';
import { ERROR_CODES, statusOf, type ErrorCode } from '../../src/platform/core/errors.js';
import { registerAgent, registrationBody } from '../support/accounts.js';
import { schemaProblems } from '../support/json-schema.js';
import { startStack } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startStack>>;
type Doc = {
  paths: Record<string, Record<string, { responses: Record<string, { description: string; 'x-error-codes'?: string[] }> }>>;
  components: { schemas: Record<string, Record<string, unknown>> };
};
let doc: Doc;

beforeAll(async () => {
  stack = await startStack({ REPORTS_MAX_OPEN_PER_REPORTER: 1, PROFILE_RATE_LIMIT: 1 });
  doc = (await stack.api.get('/api/v1/openapi.json')).body as Doc;
});
afterAll(() => stack?.stop());

/** The error codes a description names (as `code`). */
const codesIn = (description: string) => ERROR_CODES.filter((code) => description.includes(`\`${code}\``));

describe('the error responses of the OpenAPI document', () => {
  it('name, for each route and status, only the codes that route answers with that status', () => {
    const responses = (method: string, path: string) => doc.paths[path]![method]!.responses;
    const register = responses('post', '/api/v1/agents/register')['409']!.description;
    expect(codesIn(register)).toEqual(['email_taken']);
    const undo = responses('delete', '/api/v1/likes/{user_id}')['409']!.description;
    expect(codesIn(undo)).toEqual(['cannot_undo']);
    expect(undo).toMatch(/`reason`/);
    expect(codesIn(responses('post', '/api/v1/likes/{user_id}')['409']!.description)).toEqual(['idempotency_key_reused']);
    expect(codesIn(responses('post', '/api/v1/matches/{match_id}/messages')['409']!.description)).toEqual(['idempotency_key_reused']);
    expect(codesIn(responses('post', '/api/v1/reports')['409']!.description)).toEqual(['too_many_open_reports']);
    // a login's 401 is a wrong password, never a token's; a read without a body is never invalid_json
    expect(codesIn(responses('post', '/api/v1/auth/login')['401']!.description)).toEqual(['invalid_credentials']);
    expect(codesIn(responses('post', '/api/v1/auth/password')['401']!.description).sort()).toEqual(['invalid_credentials', 'unauthorized']);
    expect(codesIn(responses('get', '/api/v1/matches')['400']!.description)).toEqual(['validation_failed']);
    expect(codesIn(responses('get', '/api/v1/me')['401']!.description)).toEqual(['unauthorized']);

    // every error status of every route names at least one code, and only codes answered with that status
    const distinct = new Set<string>();
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          if (Number(status) < 400) continue;
          const codes = codesIn(response.description);
          expect(codes.length, `${method} ${path} ${status}`).toBeGreaterThan(0);
          // the same codes as data, for a client that checks an answer's code against its route
          expect([...(response['x-error-codes'] ?? [])].sort(), `${method} ${path} ${status}`).toEqual([...codes].sort());
          expect(
            codes.filter((code) => statusOf(code) !== Number(status)),
            `${method} ${path} ${status}`,
          ).toEqual([]);
          if (status === '409') distinct.add(response.description);
        }
      }
    }
    // the 409s differ as their routes do
    expect(distinct.size).toBeGreaterThanOrEqual(4);
  });

  it("describe, in the Error schema, every field the service's errors carry: each real error fits it, and it still refuses a field it does not name", async () => {
    const errorSchema = { $ref: '#/components/schemas/Error' };
    const answers = new Map<ErrorCode, JsonResponse>();
    const keep = (res: JsonResponse) => {
      expect(res.status, res.text).toBeGreaterThanOrEqual(400);
      answers.set(res.body.error.code as ErrorCode, res);
    };
    const [a, b] = await Promise.all([registerAgent(stack.api), registerAgent(stack.api)]);
    // 409 cannot_undo, with reason: a like is not undone
    await stack.api.post(`/api/v1/likes/${b.user_id}?kind=like`, { token: a.token });
    keep(await stack.api.delete(`/api/v1/likes/${b.user_id}`, { token: a.token }));
    // 410 match_ended, with ended_at
    const match = (await stack.api.post(`/api/v1/likes/${a.user_id}?kind=like`, { token: b.token })).body.match;
    expect((await stack.api.delete(`/api/v1/matches/${match.id}`, { token: a.token })).status).toBe(204);
    keep(await stack.api.get(`/api/v1/matches/${match.id}`, { token: a.token }));
    // 409 too_many_open_reports, with scope (one open report per reporter here)
    expect((await stack.api.post('/api/v1/reports', { token: a.token, body: { user_id: b.user_id, reason: 'spam' } })).status).toBe(201);
    keep(await stack.api.post('/api/v1/reports', { token: a.token, body: { user_id: b.user_id, reason: 'other' } }));
    // 429 rate_limited, with retry_after_seconds (one profile change a minute here)
    await stack.api.patch('/api/v1/me', { token: b.token, body: { bio: 'once' } });
    keep(await stack.api.patch('/api/v1/me', { token: b.token, body: { bio: 'twice' } }));
    // and the plain ones
    const body = registrationBody();
    await stack.api.post('/api/v1/agents/register', { body });
    keep(await stack.api.post('/api/v1/agents/register', { body }));
    keep(await stack.api.post('/api/v1/agents/register', { body: { ...registrationBody(), password: 'short' } }));
    keep(await stack.api.post('/api/v1/agents/register', { raw: '{not json', headers: { 'content-type': 'application/json' } }));
    keep(await stack.api.get('/api/v1/me'));
    keep(await stack.api.post('/api/v1/auth/login', { body: { email: body.email, password: 'Wrong-Pass-42' } }));
    keep(await stack.api.get('/api/v1/users/999999999', { token: a.token }));

    expect([...answers.keys()].sort()).toEqual(
      [
        'cannot_undo',
        'email_taken',
        'invalid_credentials',
        'invalid_json',
        'match_ended',
        'not_found',
        'rate_limited',
        'too_many_open_reports',
        'unauthorized',
        'validation_failed',
      ].sort(),
    );
    expect(answers.get('cannot_undo')!.body.error.reason).toBe('not_a_pass');
    expect(answers.get('too_many_open_reports')!.body.error.scope).toBe('reporter');
    expect(answers.get('match_ended')!.body.error.ended_at).toEqual(expect.any(String));
    expect(answers.get('rate_limited')!.body.error.retry_after_seconds).toEqual(expect.any(Number));
    for (const [code, res] of answers) expect(schemaProblems(doc, errorSchema, res.body), code).toEqual([]);

    // the schema is strict: a field it does not describe, or a code not in the catalogue, does not fit
    const cannotUndo = answers.get('cannot_undo')!.body;
    expect(schemaProblems(doc, errorSchema, { error: { ...cannotUndo.error, surprise: 1 } })).toEqual([
      '$.error: has surprise, which the schema does not allow',
    ]);
    expect(schemaProblems(doc, errorSchema, { error: { ...cannotUndo.error, reason: 'no_reason' } })).toHaveLength(1);
    expect(schemaProblems(doc, errorSchema, { error: { ...cannotUndo.error, code: 'no_such_code' } })).toHaveLength(1);
  });
});
