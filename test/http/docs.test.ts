import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startStack>>;
beforeAll(async () => {
  stack = await startStack({ METRICS_TOKEN: 'operators-metrics-token' });
});
afterAll(() => stack?.stop());

describe('GET /api/v1/openapi.json', () => {
  it('is OpenAPI 3.1 covering every route, with request schemas from the validating zod schemas', async () => {
    const res = await stack.api.get('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    for (const route of stack.app.http.routes) {
      const path = route.path.replace(/:(\w+)/g, '{$1}');
      expect(res.body.paths[path]?.[route.method.toLowerCase()], `${route.method} ${path}`).toBeDefined();
    }
    const register = res.body.paths['/api/v1/agents/register'].post;
    const ref = register.requestBody.content['application/json'].schema.$ref as string;
    const schema = res.body.components.schemas[ref.replace('#/components/schemas/', '')];
    expect(schema.required).toEqual(expect.arrayContaining(['email', 'password', 'display_name', 'birthdate', 'gender']));
    expect(schema.properties.gender.enum).toEqual(['man', 'woman', 'nonbinary', 'other']);
    expect(schema.properties.theme_id).toMatchObject({ minimum: 1, maximum: 6 });
    expect(register.responses['429']).toBeDefined();
    expect(res.body.paths['/api/v1/me'].get.security).toEqual([{ bearer: [] }]);
  });

  it('is a valid OpenAPI 3.1 document, every $ref resolving to a schema of its own', async () => {
    const doc = (await stack.api.get('/api/v1/openapi.json')).body;
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    // no schema is only a reference to itself, and every reference names a schema that exists
    const schemas = doc.components.schemas as Record<string, unknown>;
    for (const [name, schema] of Object.entries(schemas)) expect(schema, name).not.toEqual({ $ref: `#/components/schemas/${name}` });
    for (const [, name] of JSON.stringify(doc).matchAll(/"#\/components\/schemas\/([^"]+)"/g)) expect(schemas[name!], name).toBeDefined();
    expect(schemas.Error).toMatchObject({ type: 'object', required: ['error'] });
  });

  it('documents query parameters with the type they stand for, and WebSocket routes with only what they answer', async () => {
    const doc = (await stack.api.get('/api/v1/openapi.json')).body;
    const limit = doc.paths['/api/v1/matches'].get.parameters.find((p: { name: string }) => p.name === 'limit');
    expect(limit.schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, description: expect.any(String) });
    for (const path of ['/api/v1/ws', '/api/v1/spectator/stream']) {
      const responses = doc.paths[path].get.responses;
      // a socket route never answers 413, 415 or 507; its refusals are the upgrade's
      expect(Object.keys(responses).sort(), path).toEqual(path === '/api/v1/ws' ? ['101', '400', '401', '429', '503'] : ['101', '400', '429', '503']);
      for (const [status, response] of Object.entries(responses)) {
        expect((response as { description: string }).description, `${path} ${status}`).not.toMatch(/invalid_json|invalid_credentials|wrong credentials|Invalid JSON/);
      }
    }
    const like = doc.paths['/api/v1/likes/{user_id}'].post;
    expect(like.responses['409'].description).toMatch(/idempotency_key_reused/);
    expect(doc.components.schemas.LikeResult.required).toEqual(expect.arrayContaining(['outcome', 'note']));
  });
});

describe('GET /skill.md', () => {
  it('is a guide whose shell examples run verbatim against the service', async () => {
    const res = await stack.api.get('/skill.md', { headers: { host: `127.0.0.1:${stack.app.port}` } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/markdown/);
    const blocks = [...res.text.matchAll(/```bash\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    // Run every block in order in one bash session, as an agent pasting them would.
    const script = `set -euo pipefail\n${blocks.join('\n')}`;
    const { stdout } = await promisify(execFile)('bash', ['-c', script], { timeout: 60_000 });
    expect(stdout).not.toMatch(/"error"/);
    expect(stdout).toMatch(/"is_agent":true/);
    expect(stdout).toMatch(/origami/);
    expect(stdout).toMatch(/204\s*$/);
  });
});

describe('operations', () => {
  it('serves healthz, readyz and Prometheus metrics', async () => {
    expect((await stack.api.get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await stack.api.get('/readyz')).body).toEqual({ status: 'ready' });
    const metrics = await stack.api.get('/metrics', { token: 'operators-metrics-token' });
    expect(metrics.headers['content-type']).toMatch(/text\/plain/);
    expect(metrics.text).toMatch(/http_requests_total\{route="\/readyz",status="200"\} 1/);
  });

  it('echoes or assigns a request id, and answers CORS preflights', async () => {
    const given = await stack.api.get('/healthz', { headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers['x-request-id']).toBe('abc-123');
    expect((await stack.api.get('/healthz')).headers['x-request-id']).toMatch(/\w+-\w+/);
    const preflight = await stack.api.request('OPTIONS', '/api/v1/me', { headers: { origin: 'http://example.com', 'access-control-request-method': 'PATCH' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-methods']).toMatch(/PATCH/);
    expect(preflight.headers['access-control-allow-headers']).toMatch(/Authorization/);
  });
});
