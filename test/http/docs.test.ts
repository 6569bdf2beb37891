import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
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
