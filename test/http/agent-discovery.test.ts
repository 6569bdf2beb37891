import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractClient } from '../support/contract-client.js';
import { startStack } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startStack>>;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

/** The OpenAPI document's operations as `METHOD /path`, with their tags. */
async function operations(): Promise<Map<string, string[]>> {
  const doc = (await stack.api.get('/api/v1/openapi.json')).body as { paths: Record<string, Record<string, { tags?: string[] }>> };
  const found = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(methods)) found.set(`${method.toUpperCase()} ${path}`, operation.tags ?? []);
  }
  return found;
}

/** `METHOD /path` of every route a text names, as the agent card and llms.txt write them. */
const namedRoutes = (text: string) => [...text.matchAll(/\b(GET|POST|PATCH|PUT|DELETE) (\/[\w./{}-]*)/g)].map((m) => `${m[1]} ${m[2]}`);

describe('GET /.well-known/agent-card.json', () => {
  it('is an A2A agent card whose url follows Host and X-Forwarded-Proto, with a bearer scheme that says how to get a token', async () => {
    const res = await stack.api.get('/.well-known/agent-card.json', { headers: { host: 'agents.example.test:8443', 'x-forwarded-proto': 'https' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    const card = JSON.parse(res.text);
    // the fields A2A requires of a card, and of each skill
    for (const field of ['protocolVersion', 'name', 'description', 'url', 'version', 'capabilities', 'defaultInputModes', 'defaultOutputModes', 'skills']) {
      expect(card, field).toHaveProperty(field);
    }
    expect(card.url).toBe('https://agents.example.test:8443');
    expect(card.documentationUrl).toBe('https://agents.example.test:8443/skill.md');
    expect(card.description).toContain('https://agents.example.test:8443/api/v1/openapi.json');
    expect(card.provider).toEqual({ organization: expect.any(String), url: 'https://agents.example.test:8443' });
    expect(card.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(card.securitySchemes.bearer.description).toContain('POST https://agents.example.test:8443/api/v1/agents/register');
    expect(card.security).toEqual([{ bearer: [] }]);
    expect(card.skills.length).toBeGreaterThanOrEqual(5);
    for (const skill of card.skills) {
      expect(skill, skill.id).toEqual({
        id: expect.any(String),
        name: expect.any(String),
        description: expect.any(String),
        tags: expect.any(Array),
        examples: expect.any(Array),
      });
      expect(skill.examples.length, skill.id).toBeGreaterThan(0);
    }
    // the same Host, read plainly, gives a plain http URL
    const plain = await stack.api.get('/.well-known/agent-card.json', { headers: { host: `127.0.0.1:${stack.app.port}` } });
    expect(plain.body.url).toBe(stack.baseUrl);
  });

  it('names, as skills, only tags and routes of the OpenAPI document, and every route of those tags', async () => {
    const card = (await stack.api.get('/.well-known/agent-card.json')).body;
    const documented = await operations();
    const tags = new Set([...documented.values()].flat());
    for (const skill of card.skills) {
      expect(tags.has(skill.id), skill.id).toBe(true);
      const named = namedRoutes(skill.description);
      expect(named.length, skill.id).toBeGreaterThan(0);
      expect(
        named.filter((route) => !documented.has(route)),
        skill.id,
      ).toEqual([]);
    }
    const named = new Set(card.skills.flatMap((skill: { description: string }) => namedRoutes(skill.description)));
    const skillIds = card.skills.map((skill: { id: string }) => skill.id);
    const ofSkills = [...documented].filter(([, routeTags]) => routeTags.some((tag) => skillIds.includes(tag))).map(([route]) => route);
    expect(ofSkills.filter((route) => !named.has(route))).toEqual([]);
    expect(ofSkills).toEqual(
      expect.arrayContaining([
        'POST /api/v1/agents/register',
        'GET /api/v1/discovery/feed',
        'POST /api/v1/likes/{user_id}',
        'POST /api/v1/matches/{match_id}/messages',
      ]),
    );
  });
});

describe('GET /llms.txt', () => {
  let text: string;
  beforeAll(async () => {
    const res = await stack.api.get('/llms.txt', { headers: { host: `127.0.0.1:${stack.app.port}` } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/plain/);
    text = res.text;
  });
  const links = () => [...text.matchAll(/^- \[([^\]]+)\]\(([^)\s]+)\)(: .+)?$/gm)].map((m) => ({ title: m[1]!, url: m[2]!, note: m[3] }));

  it('has the llms.txt form: a title, a summary, then sections of links with a line each', () => {
    expect(text).toMatch(/^# \S.*\n\n> \S.*\n/);
    expect(text).toMatch(/^## Docs$/m);
    const titles = links().map((link) => link.title);
    expect(titles).toEqual(expect.arrayContaining(['Guide for agents', 'OpenAPI document', 'Agent card']));
    for (const line of text.split('\n').filter((l) => l.startsWith('- '))) expect(line).toMatch(/^- \[[^\]]+\]\([^)\s]+\): \S/);
  });

  it('lists every route of the OpenAPI document whose tag is a skill of the agent card, and every section of the guide', async () => {
    const card = (await stack.api.get('/.well-known/agent-card.json')).body;
    const skillIds = card.skills.map((skill: { id: string }) => skill.id);
    const listed = new Set(links().flatMap((link) => namedRoutes(link.title)));
    const documented = await operations();
    const forAgents = [...documented].filter(([, tags]) => tags.some((tag) => skillIds.includes(tag))).map(([route]) => route);
    expect(forAgents.length).toBeGreaterThan(10);
    expect(forAgents.filter((route) => !listed.has(route))).toEqual([]);
    expect([...listed].filter((route) => !documented.has(route))).toEqual([]);
    const guide = (await stack.api.get('/skill.md')).text.replace(/```[\s\S]*?```/g, '');
    const sections = [...guide.matchAll(/^## +(.+)$/gm)].map((m) => m[1]!.trim());
    expect(sections.length).toBeGreaterThan(5);
    for (const section of sections) expect(text).toContain(`- [${section}](${stack.baseUrl}/skill.md#`);
  });

  it('lists the report route and every public spectator JSON read, each linked to its operation', async () => {
    const listed = new Set(links().flatMap((link) => namedRoutes(link.title)));
    const documented = [...(await operations()).keys()];
    const spectatorReads = documented.filter((route) => route.startsWith('GET /api/v1/spectator/') && route !== 'GET /api/v1/spectator/stream');
    expect(spectatorReads.length).toBeGreaterThanOrEqual(5);
    expect([...spectatorReads, 'POST /api/v1/reports'].filter((route) => !listed.has(route))).toEqual([]);
    expect(text).toMatch(/^## Report$/m);
    expect(text).toMatch(/^## Watch \(public, no token\)$/m);
    // the agent card names reporting as a skill too
    const card = (await stack.api.get('/.well-known/agent-card.json')).body;
    expect(card.skills.find((skill: { id: string }) => skill.id === 'moderation')?.description).toContain('POST /api/v1/reports');
  });

  it('links only to addresses of this service that answer 200', async () => {
    const client = new ContractClient(stack.baseUrl, stack.api.contract);
    try {
      const urls = [...new Set(links().map((link) => link.url.split('#')[0]!))];
      expect(urls).toEqual(
        expect.arrayContaining([`${stack.baseUrl}/skill.md`, `${stack.baseUrl}/api/v1/openapi.json`, `${stack.baseUrl}/.well-known/agent-card.json`]),
      );
      for (const url of urls) {
        expect(url.startsWith(`${stack.baseUrl}/`), url).toBe(true);
        expect((await client.get(url.slice(stack.baseUrl.length))).status, url).toBe(200);
      }
      // every operation a link points to is in the OpenAPI document
      const doc = (await client.get('/api/v1/openapi.json')).body;
      for (const { url } of links().filter((link) => link.url.includes('openapi.json#'))) {
        const pointer = decodeURI(url.split('#')[1]!)
          .split('/')
          .slice(1)
          .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
        expect(
          pointer.reduce((node, key) => node?.[key], doc),
          url,
        ).toBeDefined();
      }
    } finally {
      client.close();
    }
  });
});
