import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REAL_ADDRESS_LIMITS, startStack } from '../support/stack.js';
import { seedAccounts, type SeededAccount } from '../support/seeded-accounts.js';
import { killChildren, run, start } from '../support/child-process.js';
import { SETTING_NAMES } from '../../src/config.js';
import { DISABLED_EVENT, PING_EVENT, WEBHOOK_EVENT_TYPES } from '../../src/features/webhooks/webhook-schemas.js';

let stack: Awaited<ReturnType<typeof startStack>>;
beforeAll(async () => {
  stack = await startStack({ METRICS_TOKEN: 'operators-metrics-token', ...REAL_ADDRESS_LIMITS, MESSAGE_RATE_LIMIT: 123 });
});
afterAll(() => stack?.stop());
afterEach(killChildren);

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
      expect(Object.keys(responses).sort(), path).toEqual(path === '/api/v1/ws' ? ['101', '400', '401', '403', '429', '503'] : ['101', '400', '429', '503']);
      for (const [status, response] of Object.entries(responses)) {
        expect((response as { description: string }).description, `${path} ${status}`).not.toMatch(
          /invalid_json|invalid_credentials|wrong credentials|Invalid JSON/,
        );
      }
    }
    const like = doc.paths['/api/v1/likes/{user_id}'].post;
    expect(like.responses['409'].description).toMatch(/idempotency_key_reused/);
    expect(doc.components.schemas.LikeResult.required).toEqual(expect.arrayContaining(['outcome', 'note']));
  });
});

describe('GET /skill.md', () => {
  let guide: string;
  beforeAll(async () => {
    const res = await stack.api.get('/skill.md', { headers: { host: `127.0.0.1:${stack.app.port}` } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/markdown/);
    guide = res.text;
  });
  const blocks = (lang: string) => [...guide.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);

  /** Every shell block in order in one bash session, as an agent pasting them would; nothing added. */
  const runGuide = () => run('bash', ['-c', blocks('bash').join('\n')], {}, 60_000);

  it('runs verbatim twice in a row from one address under the real registration limit; a third run stops at the refused registration, saying why', async () => {
    expect(blocks('bash').length).toBeGreaterThanOrEqual(6);
    for (const round of [1, 2]) {
      const { code, stdout, stderr } = await runGuide();
      expect(code, `run ${round}: ${stderr}`).toBe(0);
      expect(stdout).not.toMatch(/"error"/);
      expect(stdout).toMatch(/"is_agent":true/);
      expect(stdout).toMatch(/origami/);
      expect(stdout).toMatch(/"outcome":"recorded"/);
      expect(stdout).toMatch(/"body":"Hi Ada! Fancy some jazz, then a game of chess\?","created_at":"[^"]+","shared_interests_mentioned":\["chess","jazz"\]/);
      // the inbox: every kept event, then the message written after the cursor
      expect(stdout).toMatch(/^event \d+-\d+ match\.created$/m);
      expect(stdout).toMatch(/^event \d+-\d+ message\.created: Still up for chess\?$/m);
      expect(stdout).toMatch(/logged out\s*$/);
    }
    // 5 registrations a minute from one address: the third run's first is the fifth, its second is refused
    const third = await runGuide();
    expect(third.code).not.toBe(0);
    expect(third.stderr).toMatch(
      /^POST \/api\/v1\/agents\/register failed with HTTP 429: \{"error":\{"code":"rate_limited","message":"Too many registrations from this address; wait \d+ seconds/m,
    );
    expect(third.stdout).toMatch(/registered as user \d+/);
    // it stopped at that failure: nothing after it ran, and no later call complains about a bad token
    expect(third.stdout).not.toMatch(/"outcome"|logged out/);
    expect(third.stderr).not.toMatch(/Bearer|401/);
  });

  it('stops at once with the reason when the first registration is refused', async () => {
    // the window is full now (see above): the very first call fails, and nothing runs on with an empty token
    const { code, stdout, stderr } = await runGuide();
    expect(code).not.toBe(0);
    expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(/^POST \/api\/v1\/agents\/register failed with HTTP 429: .*rate_limited/)]);
    expect(stdout).toBe('');
  });

  it('states the limits this service runs with', () => {
    expect(guide).toContain('| registrations per client address | 5 per minute, every attempt counts (failed and refused ones too) | 429 |');
    expect(guide).toContain('| messages sent per account | 123 per minute | 429, nothing stored |');
    expect(guide).toContain('| token lifetime | 24 hours | 401 |');
    expect(guide).toMatch(/Retry-After/);
    for (const type of ['match.created', 'message.created', 'match.ended', 'like.received', 'replay.truncated']) expect(guide).toContain(`| \`${type}\` |`);
    for (const code of [4008, 1012, 1011, 1001, 4001, 4003]) expect(guide).toContain(`| ${code} |`);
    // what surprises otherwise: how score is made, where kind goes, and the swipes that change nothing
    expect(guide).toContain('`ln(1 + agents in the pool / agents holding that interest)`');
    expect(guide).toContain('`kind` is a **query parameter**');
    expect(guide).toMatch(/\| `match_kept` \| you passed on someone you are matched with: the pass is stored but the match stays/);
    expect(guide).toMatch(/\| `pair_ended` \| you liked someone after an unmatch: stored, and nothing else happens/);
    expect(guide).toMatch(/Node 20 has none without a flag: run it as\s+`node --experimental-websocket events\.mjs`/);
    expect(guide).toContain('URLs must be `http(s)` on port 80 or 443 (another port is a 400), at a public address');
    expect(guide).toContain('every IPv6 form of an IPv4 address');
  });

  it('names every way in: REST, the socket, webhooks and MCP (with its npm script), and the documents for agents', () => {
    const top = guide.slice(0, guide.indexOf('## How answers work'));
    for (const way of ['**REST**', '**WebSocket**', '**Webhooks**', '**MCP**', '`npm run -s mcp`', '/llms.txt', '/.well-known/agent-card.json'])
      expect(top).toContain(way);
  });

  it('says exactly what a feed item and a browse item are, as the service answers them', async () => {
    const [a] = (await seedAccounts(stack.app, 'agent', 2)) as [SeededAccount, SeededAccount];
    const feed = (await stack.api.get('/api/v1/discovery/feed?limit=1', { token: a.token })).body.items[0];
    const browsed = (await stack.api.get('/api/v1/discovery/browse?limit=1', { token: a.token })).body.items[0];
    const fields = (shape: string) => [...shape.matchAll(/"(\w+)"/g)].map((m) => m[1]).sort();
    const profile = fields(/^A profile is `(\{[^`]+\})`/m.exec(guide)![1]!);
    const feedItem = fields(/a \*\*feed\*\* item is `(\{[^`]+\})`/.exec(guide)![1]!);
    expect(guide).toMatch(/a \*\*browse\*\* item is the profile itself/);
    expect(Object.keys(feed).sort()).toEqual(feedItem);
    expect(Object.keys(feed.user).sort()).toEqual(profile);
    expect(Object.keys(browsed).sort()).toEqual(profile);
  });

  it('lists every public spectator read, and every event type of the stream and of webhooks, as docs/api.md does', () => {
    const spectator = stack.app.http.routes.filter((route) => /^\/(api\/v1\/)?spectator(\/matches|\/agents|\/stats|\/stream|$)/.test(route.path));
    expect(spectator.length).toBeGreaterThanOrEqual(8);
    for (const route of spectator) expect(guide).toContain(`\`${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}\``);
    const api = readFileSync(resolve(import.meta.dirname, '..', '..', 'docs', 'api.md'), 'utf8');
    for (const type of [...WEBHOOK_EVENT_TYPES, PING_EVENT, DISABLED_EVENT]) {
      expect(guide, type).toContain(`| \`${type}\` |`);
      expect(api, type).toMatch(new RegExp(`^ *\\| \`${type.replace('.', '\\.')}\` \\|`, 'm'));
    }
    // a webhook is sent its event types and the ping; webhook.disabled comes on the stream only
    const webhookTable = guide.slice(guide.indexOf('What a webhook receives'), guide.indexOf('Also: `GET /api/v1/webhooks`'));
    for (const type of [...WEBHOOK_EVENT_TYPES, PING_EVENT]) expect(webhookTable).toContain(`| \`${type}\` |`);
    expect(webhookTable).not.toContain(`| \`${DISABLED_EVENT}\` |`);
    expect(guide).toContain('`WEBHOOK_ALLOW_PRIVATE=true`');
  });

  it('runs every call of its script through a check that stops at a failure, and creates no webhook', () => {
    const script = blocks('bash').join('\n');
    // curl runs in one place, inside the api helper, which fails on an HTTP error or no answer
    expect(script.replace(/#.*$/gm, '').match(/\bcurl\b/g)).toHaveLength(1);
    expect(script).toMatch(/out=\$\(curl -sS [^\n]*\) \|\| \{ echo "\$method \$path: no answer" >&2; return 1; \}/);
    expect(script).not.toMatch(/\/api\/v1\/webhooks/);
  });

  it("has Node.js and Python clients that print a stream's events with their ids, resume with since at a printed id, and stop on a revoked token", async () => {
    const [a, b] = (await seedAccounts(stack.app, 'agent', 2)) as [SeededAccount, SeededAccount];
    await stack.api.post(`/api/v1/likes/${b.user_id}?kind=like`, { token: a.token });
    const match = (await stack.api.post(`/api/v1/likes/${a.user_id}?kind=like`, { token: b.token })).body.match;
    await stack.api.post(`/api/v1/matches/${match.id}/messages`, { token: a.token, body: { body: 'Hello from the test' } });
    const [js] = blocks('js');
    const [py] = blocks('python');
    const clients: Array<[string, string[]]> = [
      ['node', ['--input-type=module', '-e', js!]],
      ['python3', ['-c', py!]],
    ];
    for (const [command, args] of clients) {
      const token = (await stack.app.tokens.issue(b.user_id, 'agent')).token;
      const client = start(command, args, { BASE: stack.baseUrl, TOKEN: token, SINCE: '0' });
      // each line is "<id> <type> <data>" (Python's json.dumps puts a space after ':' and ',')
      await client.waitFor(/^\d+-\d+ message\.created .*"body": ?"Hello from the test"/m);
      const created = new RegExp(`^(\\d+-\\d+) match\\.created \\{"id": ?${match.id}, ?"user": ?\\{"id": ?${a.user_id},`, 'm').exec(client.stdout);
      expect(created, `${command}: ${client.stdout}`).not.toBeNull();
      // the printed id is what since takes: resumed after it, the client gets the message and not the match again
      const resumed = start(command, args, { BASE: stack.baseUrl, TOKEN: token, SINCE: created![1]! });
      await resumed.waitFor(/^\d+-\d+ message\.created .*"body": ?"Hello from the test"/m);
      expect(resumed.stdout, command).not.toMatch(/match\.created/);
      // logging out revokes the token: the socket is closed with 4003 and the client stops, saying so
      expect((await stack.api.post('/api/v1/auth/logout', { token })).status).toBe(204);
      for (const stopped of [await client.exited, await resumed.exited]) {
        expect(stopped.code, command).toBe(1);
        expect(stopped.stderr).toMatch(/closed 4003.*log in again/);
      }
    }
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

describe("the documents (README.md, docs/, bench/README.md, the clients' READMEs)", () => {
  const ROOT = resolve(import.meta.dirname, '..', '..');
  const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
  const documents = [
    'README.md',
    'bench/README.md',
    'clients/python/README.md',
    'clients/typescript/README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  const withoutCode = (text: string) => text.replace(/```[\s\S]*?```/g, '');
  /** The anchors a Markdown renderer gives the headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
  const anchors = (text: string) => {
    const seen = new Map<string, number>();
    const found = new Set<string>();
    for (const [, heading] of withoutCode(text).matchAll(/^#{1,6} +(.+)$/gm)) {
      const slug = heading!
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-');
      const n = seen.get(slug) ?? 0;
      found.add(n === 0 ? slug : `${slug}-${n}`);
      seen.set(slug, n + 1);
    }
    return found;
  };

  it("keep the test command in the README's quick start", () => {
    const readme = read('README.md');
    const quickStart = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('\n## ', readme.indexOf('## Quick start') + 1));
    expect(quickStart).toMatch(/```bash\n[\s\S]*^npm test\b[\s\S]*```/m);
  });

  it('document every setting in docs/configuration.md and every route in docs/api.md', () => {
    const configuration = read('docs/configuration.md');
    expect(SETTING_NAMES.filter((name) => !configuration.includes(`\`${name}\``))).toEqual([]);
    const api = read('docs/api.md');
    // a path as the document writes it: `{name}` for a parameter, the method before it
    const documented = (method: string, path: string) =>
      new RegExp(`${method}[^\\n]*${path.replace(/[.]/g, '\\.').replace(/:\w+/g, '\\{\\w+\\}')}(?![\\w/{])`).test(api);
    // (the spectator page's own script, style sheet and icon are parts of the page, not routes of the API)
    const routes = stack.app.http.routes.filter((route) => !/\.(js|css|svg)$/.test(route.path));
    expect(routes.filter((route) => !documented(route.method, route.path)).map((route) => `${route.method} ${route.path}`)).toEqual([]);
  });

  it('link only to files and headings that exist, inside the repository', () => {
    const broken: string[] = [];
    for (const document of documents) {
      for (const [, target] of withoutCode(read(document)).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^https?:\/\//.test(target!)) continue;
        const [path, anchor] = target!.split('#') as [string, string | undefined];
        const file = path === '' ? join(ROOT, document) : resolve(ROOT, dirname(document), path);
        const inside = relative(ROOT, file);
        if (isAbsolute(path) || inside.startsWith('..') || isAbsolute(inside)) broken.push(`${document}: ${target} is outside the repository`);
        else if (!existsSync(file)) broken.push(`${document}: ${target} does not exist`);
        else if (anchor !== undefined && !anchors(readFileSync(file, 'utf8')).has(anchor)) broken.push(`${document}: ${target} names no heading`);
      }
    }
    expect(broken).toEqual([]);
  });
});
