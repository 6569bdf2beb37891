import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonResponse } from '../../src/clients/json-client.js';
import { registerAgent, registrationBody } from '../support/accounts.js';
import { ApiContract, ContractViolation, type ApiDocument, type ReceivedResponse } from '../support/api-contract.js';
import { ContractClient } from '../support/contract-client.js';
import { EventSocket } from '../support/event-socket.js';
import { socketContract } from '../support/socket-contract.js';
import { startStack } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startStack>>;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

const received = (res: JsonResponse): ReceivedResponse => ({
  status: res.status,
  contentType: String(res.headers['content-type']),
  body: res.body,
  text: res.text,
});

/** What `check` throws for `answer` to `method` `path`, as text ('' when it fits). */
function refusal(method: string, path: string, answer: ReceivedResponse): string {
  try {
    stack.api.contract.check(method, path, answer);
    return '';
  } catch (error) {
    expect(error).toBeInstanceOf(ContractViolation);
    return (error as Error).message;
  }
}

describe("the tests' client, held to the OpenAPI document", () => {
  it('lets through the answers the document gives', async () => {
    const agent = await registerAgent(stack.api);
    const me = await stack.api.get('/api/v1/me', { token: agent.token });
    expect(refusal('GET', '/api/v1/me', received(me))).toBe('');
  });

  it('refuses an answer whose body breaks its schema, naming the route, the status and each problem', async () => {
    const agent = await registerAgent(stack.api);
    const me = received(await stack.api.get('/api/v1/me', { token: agent.token }));
    const broken = { ...me, body: { ...(me.body as object), display_name: 42, surprise: true } };
    const message = refusal('GET', '/api/v1/me', broken);
    expect(message).toMatch(/^GET \/api\/v1\/me answered 200, which the OpenAPI document does not allow/);
    expect(message).toContain('$.display_name: is integer, not string');
    expect(message).toContain('has surprise, which the schema does not allow');
  });

  it('refuses a status the route does not document, an error code it does not list, and a content type it does not give', async () => {
    const agent = await registerAgent(stack.api);
    const me = received(await stack.api.get('/api/v1/me', { token: agent.token }));
    expect(refusal('GET', '/api/v1/me', { ...me, status: 418 })).toContain('status 418 is not documented for GET /api/v1/me');

    const body = registrationBody();
    await stack.api.post('/api/v1/agents/register', { body });
    const taken = received(await stack.api.post('/api/v1/agents/register', { body }));
    expect(taken.status).toBe(409);
    const unlisted = { ...taken, body: { error: { ...(taken.body as { error: object }).error, code: 'idempotency_key_reused' } } };
    expect(refusal('POST', '/api/v1/agents/register', unlisted)).toContain(
      '$.error.code: "idempotency_key_reused" is not among the codes the document lists for this status (email_taken)',
    );

    const guide = received(await stack.api.get('/skill.md'));
    expect(refusal('GET', '/skill.md', guide)).toBe('');
    expect(refusal('GET', '/skill.md', { ...guide, contentType: 'text/html; charset=utf-8' })).toContain(
      'the content type text/html is not one the document gives (text/markdown)',
    );
    expect(refusal('GET', '/api/v1/nowhere', { ...guide, status: 200 })).toContain('no path of the document matches, so the answer is 404, not 200');
  });

  it('throws from the request itself when the answer does not fit', async () => {
    // The same service, judged by a document that leaves out the 401 of GET /api/v1/me.
    const document: ApiDocument = structuredClone(stack.api.contract.document);
    delete document.paths['/api/v1/me']!.get!.responses['401'];
    const client = new ContractClient(stack.baseUrl, new ApiContract(document));
    try {
      await expect(client.get('/api/v1/me')).rejects.toThrow(/GET \/api\/v1\/me answered 401[^]*status 401 is not documented for GET \/api\/v1\/me/);
    } finally {
      client.close();
    }
  });

  it("refuses a socket frame that is not one of the frames the document names, and an upgrade's answer it does not give", async () => {
    const [a, b] = await Promise.all([registerAgent(stack.api), registerAgent(stack.api)]);
    const socket = await EventSocket.open(stack.baseUrl, '/api/v1/ws', { token: b.token });
    await stack.api.post(`/api/v1/likes/${b.user_id}?kind=like`, { token: a.token });
    await stack.api.post(`/api/v1/likes/${a.user_id}?kind=like`, { token: b.token });
    const [frame] = await socket.waitFor(1);
    await socket.close();
    expect(frame!.type).toBe('match.created');
    expect(socketContract.frameProblems('/api/v1/ws', frame)).toEqual([]);
    const [problem] = socketContract.frameProblems('/api/v1/ws', { ...frame, data: { ...frame!.data, id: String(frame!.data.id) } });
    expect(problem).toMatch(/^\$: fits none of anyOf; the nearest option: .*\$\.data\.id: is string, not integer/);
    expect(socketContract.frameProblems('/api/v1/spectator/stream', frame)).not.toEqual([]);

    const refused = { status: 418, contentType: 'application/json', body: { error: { code: 'unauthorized', message: 'no', details: [] } }, text: '{}' };
    expect(socketContract.problems('GET', '/api/v1/ws', refused)).toEqual([
      'status 418 is not documented for GET /api/v1/ws (it lists 101, 400, 401, 403, 429, 503)',
    ]);
  });
});
