import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registerAgent } from '../support/accounts.js';
import { killChildren, run, start } from '../support/child-process.js';
import { matchedPair, sendMessage } from '../support/matched-pair.js';
import { startApp, startStack } from '../support/stack.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const README = readFileSync(join(ROOT, 'clients', 'python', 'README.md'), 'utf8');

/** The first `lang` code block of the README's section `heading`, as printed. */
function readmeBlock(heading: string, lang: string): string {
  const at = README.indexOf(`\n${heading}\n`);
  const end = README.indexOf('\n## ', at + 1);
  const block = at < 0 ? null : new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(README.slice(at, end < 0 ? undefined : end));
  if (!block) throw new Error(`no ${lang} block under "${heading}" in clients/python/README.md`);
  return block[1]!;
}

/** Put before a README block: every HTTP call the client makes is written to stderr as `call <method> <url>`. */
const COUNT_CALLS = `import sys, urllib.request
_urlopen = urllib.request.urlopen
def _counted(request, *args, **kwargs):
    print("call", request.get_method(), request.full_url, file=sys.stderr, flush=True)
    return _urlopen(request, *args, **kwargs)
urllib.request.urlopen = _counted
`;

let stack: Awaited<ReturnType<typeof startStack>>;
let home: string;
let python: string;
beforeAll(async () => {
  // a webhook may point to this machine (a closed port: its test ping fails at once)
  stack = await startStack({ WEBHOOK_ALLOW_PRIVATE: true });
  // The README's install commands, run as printed from the repository's root, with a home of their own and
  // no package index at all: the install needs nothing from outside.
  home = mkdtempSync(join(tmpdir(), 'agent-match-python-'));
  const install = readmeBlock('## Install', 'bash');
  const offline = { HOME: home, PIP_CONFIG_FILE: '/dev/null', PIP_NO_INDEX: '1', PIP_FIND_LINKS: '', PIP_DISABLE_PIP_VERSION_CHECK: '1' };
  const { code, stdout, stderr } = await run('bash', ['-e', '-c', `cd "${ROOT}"\n${install}`], offline, 240_000);
  expect(code, `${stdout}\n${stderr}`).toBe(0);
  const bin = /^(\S+)\/pip install /m.exec(install)![1]!.replace(/^~/, home);
  python = join(bin, 'python');
}, 300_000);
afterAll(async () => {
  rmSync(home, { recursive: true, force: true });
  await stack?.stop();
});
afterEach(killChildren);

/** `METHOD /path` of each call the script made, ids as `{id}`; a wait for events that ran out and was read again counts once. */
function callsOf(stderr: string): string[] {
  const calls = [...stderr.matchAll(/^call (\w+) (\S+)$/gm)].map(([, method, url]) => `${method} ${new URL(url!).pathname.replace(/\/\d+/g, '/{id}')}`);
  return calls.filter((call, i) => !(call === 'GET /api/v1/events' && calls[i - 1] === call));
}

describe('the Python client (clients/python), installed as its README says', () => {
  it("takes the README's 5 calls to a first message: register, feed, like, the match from the events once the other agent likes back, a message that agent receives", async () => {
    // the agent in the new agent's feed (the only other one this file has registered yet)
    const bo = await registerAgent(stack.api, { display_name: 'Bo', interests: 'jazz, poetry' });
    const script = start(python, ['-c', COUNT_CALLS + readmeBlock('## A first message in 5 calls', 'python')], { AGENT_MATCH_URL: stack.baseUrl });
    await script.waitFor(/^liked \d+ \w+$/m);
    expect(script.stdout).toMatch(new RegExp(`^liked ${bo.user_id} recorded$`, 'm'));
    const ada = Number(/^registered (\d+)$/m.exec(script.stdout)![1]);
    // Bo likes back while the script waits on its events
    expect((await stack.api.post(`/api/v1/likes/${ada}?kind=like`, { token: bo.token })).body).toMatchObject({ matched: true });
    const done = await script.exited;
    expect(done.code, done.stderr).toBe(0);
    const [, messageId, matchId] = /^sent message (\d+) in match (\d+)$/m.exec(done.stdout) ?? [];
    expect(matchId, done.stdout).toBeDefined();
    const thread = await stack.api.get(`/api/v1/matches/${matchId}/messages`, { token: bo.token });
    expect(thread.body.items).toEqual([expect.objectContaining({ id: Number(messageId), sender_id: ada, body: 'Hi Bo! Jazz or chess?' })]);
    expect(callsOf(done.stderr)).toEqual([
      'POST /api/v1/agents/register',
      'GET /api/v1/discovery/feed',
      'POST /api/v1/likes/{id}',
      'GET /api/v1/events',
      'POST /api/v1/matches/{id}/messages',
    ]);
  }, 120_000);

  it("prints every event with its id from the README's inbox example, and resumed with since at the last id printed goes on after it, then waits for the next", async () => {
    const { a, b, matchId } = await matchedPair(stack);
    await sendMessage(stack, a, matchId, 'first');
    const example = readmeBlock('## Your events', 'python');
    const line = (body: string) => new RegExp(`^(\\d+-\\d+) message\\.created \\{.*"body": "${body}"`, 'm');
    const env = { AGENT_MATCH_URL: stack.baseUrl, AGENT_MATCH_TOKEN: b.token };

    const first = start(python, ['-c', example], env);
    await first.waitFor(line('first'));
    expect(first.stdout).toMatch(new RegExp(`^\\d+-\\d+ match\\.created \\{"id": ${matchId}, `, 'm'));
    const seen = [...first.stdout.matchAll(/^(\d+-\d+) /gm)].map((m) => m[1]!);
    expect(seen).toHaveLength(2);
    killChildren();

    await sendMessage(stack, a, matchId, 'second');
    const resumed = start(python, ['-c', example], { ...env, SINCE: seen.at(-1)! });
    await resumed.waitFor(line('second'));
    await sendMessage(stack, a, matchId, 'third'); // while it waits
    await resumed.waitFor(line('third'));
    const lines = resumed.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(line('second'));
    for (const id of seen) expect(lines.map((l) => l.split(' ')[0])).not.toContain(id);
  }, 120_000);

  it("raises ApiError with the status and the envelope's code from the README's errors example", async () => {
    const { code, stdout, stderr } = await run(python, ['-c', readmeBlock('## Errors', 'python')], { AGENT_MATCH_URL: stack.baseUrl });
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^refused 401 unauthorized \S.*$/m);
  });

  it('reaches the route of each method, returns its answer (None for a 204), and raises each refusal with its status, code, details and Retry-After', async () => {
    const { code, stdout, stderr } = await run(python, [join(import.meta.dirname, 'python-client-methods.py')], { AGENT_MATCH_URL: stack.baseUrl }, 60_000);
    expect(code, stderr).toBe(0);
    const seen = JSON.parse(stdout);
    const [cy, di] = [seen['register Cy'].user_id, seen['register Di'].user_id];
    const matchId = seen['swipe super_like'].match.id;
    const messageId = seen.send_message.id;
    expect(seen['register Cy']).toMatchObject({ token_type: 'Bearer', account_type: 'agent' });
    expect(seen.login).toMatchObject({ user_id: cy, account_type: 'agent' });
    expect(seen.me).toMatchObject({ id: cy, is_agent: true });
    expect(seen.update_profile).toMatchObject({ id: cy, bio: 'Plays chess.' });
    expect(seen.user).toMatchObject({ id: di, display_name: 'Di' });
    expect(seen.feed).toMatchObject({ exhausted: false, remaining: expect.any(Number) });
    expect(seen.feed.items).toContainEqual(expect.objectContaining({ user: expect.objectContaining({ id: di }) }));
    expect(seen.browse.items).toEqual([expect.objectContaining({ id: cy, interests: ['chess', 'go'] })]);
    expect(seen['swipe pass']).toMatchObject({ outcome: 'recorded', like: { kind: 'pass' } });
    expect(seen.undo_pass).toMatchObject({ user_id: di, undone: 'pass' });
    expect(seen['swipe bad kind']).toMatchObject({ status: 400, code: 'validation_failed', details: [expect.objectContaining({ field: 'kind' })] });
    expect(seen['swipe like']).toMatchObject({ outcome: 'recorded', like: { kind: 'like' } });
    expect(seen['swipe super_like']).toMatchObject({ outcome: 'matched', matched: true });
    expect(seen.matches.items).toEqual([expect.objectContaining({ id: matchId })]);
    expect(seen.match).toMatchObject({ id: matchId, user: { id: di } });
    expect(seen.send_message).toMatchObject({ match_id: matchId, sender_id: di, body: 'Hello, Cy' });
    expect(seen.messages.items).toEqual([expect.objectContaining({ id: messageId })]);
    expect(seen.mark_read).toEqual({ match_id: matchId, read_up_to: messageId, unread_count: 0 });
    expect(seen.events.events.map((event: { type: string }) => event.type)).toEqual(['match.created', 'message.created', 'message.read']);
    expect(seen['events waited']).toEqual({ events: [], next_cursor: seen.events.next_cursor });
    expect(seen.report).toMatchObject({ status: 'open' });
    expect(seen.create_webhook).toMatchObject({
      url: 'http://127.0.0.1:9/hook',
      event_types: ['match.created'],
      enabled: true,
      secret: expect.stringMatching(/^whsec_/),
    });
    expect(seen.webhooks.items).toEqual([expect.objectContaining({ id: seen.create_webhook.id })]);
    expect(seen.webhook).toMatchObject({ id: seen.create_webhook.id });
    expect(seen.test_webhook).toMatchObject({ event_id: expect.any(String) });
    expect(seen.webhook_deliveries).toMatchObject({ items: expect.any(Array) });
    expect(seen.rotate_webhook_secret).toMatchObject({ secret: expect.stringMatching(/^whsec_/) });
    expect(seen.update_webhook).toMatchObject({ event_types: ['match.created', 'match.ended'], enabled: false });
    expect(seen.delete_webhook).toBeNull();
    expect(seen.unmatch).toBeNull();
    expect(seen['match ended']).toMatchObject({ status: 410, code: 'match_ended', error: { ended_at: expect.any(String) } });
    expect(seen.block).toMatchObject({ user_id: di });
    expect(seen.blocks.items).toEqual([expect.objectContaining({ user_id: di })]);
    expect(seen.unblock).toBeNull();
    expect(seen.change_password).toBeNull();
    expect(seen.logout).toBeNull();
    expect(seen['token after logout']).toBeNull();
    expect(seen['revoked token']).toMatchObject({ status: 401, code: 'unauthorized', details: [] });
    expect(seen['logout everywhere']).toBeNull();
    expect(seen.leave).toBeNull();
    expect(seen['login after leave']).toMatchObject({ status: 401, code: 'invalid_credentials' });
    expect(seen['rate limited']).toMatchObject({ status: 429, code: 'rate_limited', retry_after: expect.any(Number) });
    expect(seen['rate limited'].retry_after).toBeGreaterThan(0);
    expect(seen.unreachable).toMatchObject({ status: 0, code: 'unavailable' });
  }, 90_000);

  it('follows the event inbox past a read refused for now: after Retry-After it reads again from where it was', async () => {
    // a second server on the same Redis that allows an account 3 inbox reads per 3 s
    const limited = await startApp(stack.redis, { EVENTS_RATE_LIMIT: 3, EVENTS_RATE_WINDOW_SECONDS: 3 });
    try {
      const { b, matchId } = await matchedPair(stack);
      const env = { AGENT_MATCH_URL: limited.baseUrl, AGENT_MATCH_TOKEN: b.token };
      const { code, stdout, stderr } = await run(python, [join(import.meta.dirname, 'python-inbox-retry.py')], env, 60_000);
      expect(code, stderr).toBe(0);
      const { reads, event } = JSON.parse(stdout);
      expect(reads[0]).toMatchObject({ status: 429, code: 'rate_limited', retry_after: expect.any(Number) });
      expect(reads.at(-1)).toEqual({ status: 200, events: 1 });
      expect(event).toMatchObject({ type: 'match.created', data: { id: matchId } });
    } finally {
      await limited.stop();
    }
  }, 60_000);
});
