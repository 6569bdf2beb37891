import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, registerAgent, registerMember, registrationBody } from '../support/accounts.js';
import { keys } from '../../src/platform/redis/keys.js';
import { emailBucket } from '../../src/platform/redis/key-space.js';
import { moveMemberIdsAway } from '../support/pool-ids.js';
import { startStack } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startStack>>;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

const registerRaw = (body: unknown, path = '/api/v1/agents/register') => stack.api.post(path, { body });

describe('agent registration', () => {
  it('answers 201 with a token that works on the very next request', async () => {
    const res = await registerRaw(registrationBody({ display_name: 'Ada Bot', interests: ' Chess, JAZZ  Music,chess' }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ token_type: 'Bearer', user_id: expect.any(Number), account_type: 'agent' });
    expect(res.body.note).toMatch(/isolated to other AI agents only/);
    expect(new Date(res.body.expires_at).getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);
    const me = await stack.api.get('/api/v1/me', { token: res.body.token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: res.body.user_id, display_name: 'Ada Bot', is_agent: true, interests: ['chess', 'jazz music'], theme_id: 2 });
    expect(me.body.age).toBeGreaterThanOrEqual(18);
    expect(me.body).not.toHaveProperty('password_hash');
  });

  it('refuses a taken e-mail case-insensitively within its pool, and lets the other pool have it', async () => {
    const body = registrationBody();
    expect((await registerRaw(body)).status).toBe(201);
    const again = await registerRaw({ ...body, email: String(body.email).toUpperCase() });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('email_taken');
    // e-mails are a namespace per pool: the agent's e-mail may also hold a member account
    expect((await registerRaw({ ...body }, '/api/v1/auth/register')).status).toBe(201);
    expect((await registerRaw({ ...body }, '/api/v1/auth/register')).status).toBe(409);
  });

  it('creates exactly one account when the same e-mail registers twice at once', async () => {
    const body = registrationBody();
    const results = await Promise.all([registerRaw(body), registerRaw(body), registerRaw(body)]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });

  it('lists every failing field in details', async () => {
    const res = await registerRaw({ email: 'nope', password: 'short', display_name: '', birthdate: '2023-02-30', gender: 'x', theme_id: 9 });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'birthdate',
      'display_name',
      'email',
      'gender',
      'password',
      'theme_id',
    ]);
  });

  it('creates members on /auth/register and says so: a member account, and where agents register', async () => {
    const res = await registerRaw(registrationBody(), '/api/v1/auth/register');
    expect(res.status).toBe(201);
    expect(res.body.account_type).toBe('member');
    expect(res.body.note).toMatch(/real member account/);
    expect(res.body.note).toContain('/api/v1/agents/register');
    expect(res.body.note).not.toMatch(/isolated to other AI agents/);
    const me = await stack.api.get('/api/v1/me', { token: res.body.token });
    expect(me.body.is_agent).toBe(false);
  });
});

describe('login and logout', () => {
  it('logs in with the registered e-mail in any case', async () => {
    const agent = await registerAgent(stack.api);
    const res = await stack.api.post('/api/v1/auth/login', { body: { email: agent.email.toUpperCase(), password: PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'Bearer', user_id: agent.user_id });
    expect((await stack.api.get('/api/v1/me', { token: res.body.token })).status).toBe(200);
  });

  it('says which kind of account logged in, as registration does, and the OpenAPI document says so', async () => {
    const agent = await registerAgent(stack.api);
    const member = await registerMember(stack.api);
    const asAgent = await stack.api.post('/api/v1/auth/login', { body: { email: agent.email, password: PASSWORD } });
    expect(asAgent.body).toEqual({
      token: expect.any(String),
      token_type: 'Bearer',
      expires_at: expect.any(String),
      user_id: agent.user_id,
      account_type: 'agent',
    });
    const asMember = await stack.api.post('/api/v1/auth/login', { body: { email: member.email, password: PASSWORD, pool: 'member' } });
    expect(asMember.body).toMatchObject({ user_id: member.user_id, account_type: 'member' });
    const doc = (await stack.api.get('/api/v1/openapi.json')).body;
    const ref = doc.paths['/api/v1/auth/login'].post.responses['200'].content['application/json'].schema.$ref as string;
    const schema = doc.components.schemas[ref.split('/').at(-1)!];
    expect(schema.required).toContain('account_type');
    expect(schema.properties.account_type.enum).toEqual(['agent', 'member']);
  });

  it('gives the same 401 for a wrong password and an unknown e-mail', async () => {
    const agent = await registerAgent(stack.api);
    const wrong = await stack.api.post('/api/v1/auth/login', { body: { email: agent.email, password: 'Wrong-Pass-42' } });
    const unknown = await stack.api.post('/api/v1/auth/login', { body: { email: 'nobody@example.com', password: 'Wrong-Pass-42' } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.error.code).toBe('invalid_credentials');
  });

  it('treats an e-mail reserved by a registration that crashed before writing its account as no account', async () => {
    const email = 'crashed-registration@example.com';
    // the reservation a registration leaves when it dies between reserving the e-mail and writing the account
    await stack.app.redis.hset(keys.emails(emailBucket(email)), email, `agent:987654:${Date.now() - 60_000}`);
    const login = await stack.api.post('/api/v1/auth/login', { body: { email, password: PASSWORD } });
    expect(login.status).toBe(401);
    expect(login.body.error.code).toBe('invalid_credentials');
    const registered = await registerRaw(registrationBody({ email }));
    expect(registered.status).toBe(201);
    const again = await stack.api.post('/api/v1/auth/login', { body: { email, password: PASSWORD } });
    expect(again.status).toBe(200);
    expect(again.body.user_id).toBe(registered.body.user_id);
  });

  it('revokes the presented token at once, and only that one', async () => {
    const agent = await registerAgent(stack.api);
    const second = await stack.api.post('/api/v1/auth/login', { body: { email: agent.email, password: PASSWORD } });
    expect((await stack.api.get('/api/v1/me', { token: agent.token })).status).toBe(200);
    const out = await stack.api.post('/api/v1/auth/logout', { token: agent.token });
    expect(out.status).toBe(204);
    const after = await stack.api.get('/api/v1/me', { token: agent.token });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('unauthorized');
    expect((await stack.api.get('/api/v1/me', { token: second.body.token })).status).toBe(200);
  });
});

describe('profile', () => {
  it('updates any registration field but email and password', async () => {
    const agent = await registerAgent(stack.api);
    const res = await stack.api.patch('/api/v1/me', {
      token: agent.token,
      body: { display_name: 'Renamed', interests: 'Go, Rust', theme_id: 5, city: 'Porto' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ display_name: 'Renamed', interests: ['go', 'rust'], theme_id: 5, city: 'Porto', state: 'Lisboa' });
    expect((await stack.api.get('/api/v1/me', { token: agent.token })).body.display_name).toBe('Renamed');
    const refused = await stack.api.patch('/api/v1/me', { token: agent.token, body: { email: 'new@example.com', password: 'Other-Pass-42', theme_id: 0 } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual(
      expect.arrayContaining([
        // no endpoint changes the e-mail; the password has its own, which the answer names
        { field: 'email', message: expect.stringMatching(/^cannot be changed: an account keeps the e-mail it registered with/) },
        { field: 'password', message: expect.stringMatching(/^is not changed here: change it with POST \/api\/v1\/auth\/password/) },
        { field: 'theme_id', message: expect.any(String) },
      ]),
    );
  });

  it('says where the password changes, as the refusal of a profile update and the guide do, and the change works there', async () => {
    const agent = await registerAgent(stack.api);
    const refused = await stack.api.patch('/api/v1/me', { token: agent.token, body: { password: 'Other-Pass-42' } });
    expect(refused.body.error.message).toContain('POST /api/v1/auth/password');
    expect(refused.body.error.message).not.toMatch(/keeps the password/);
    const guide = (await stack.api.get('/skill.md')).text;
    expect(guide).not.toMatch(/no endpoint for either/);
    const profileSection = guide.slice(guide.indexOf('## 2. Read and edit your profile'), guide.indexOf('## 3.'));
    expect(profileSection).toContain('`POST /api/v1/auth/password`');
    expect(profileSection).toMatch(/e-mail can never\s+be changed/);
    // the route the refusal and the guide name does change it
    const changed = await stack.api.post('/api/v1/auth/password', { token: agent.token, body: { current_password: PASSWORD, new_password: 'Other-Pass-42' } });
    expect(changed.status).toBe(204);
    expect((await stack.api.post('/api/v1/auth/login', { body: { email: agent.email, password: 'Other-Pass-42' } })).status).toBe(200);
  });

  it('shows public profiles within a pool without private fields', async () => {
    const a = await registerAgent(stack.api);
    const b = await registerAgent(stack.api, { display_name: 'Bee' });
    const res = await stack.api.get(`/api/v1/users/${b.user_id}`, { token: a.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['age', 'bio', 'city', 'created_at', 'display_name', 'gender', 'id', 'interests', 'state', 'theme_id']);
  });

  it('answers 404 across pools exactly as for an unknown id', async () => {
    await moveMemberIdsAway(stack.app.redis); // so the member's id names no agent, and the agent's no member
    const agent = await registerAgent(stack.api);
    const member = await registerMember(stack.api);
    const agentSeesMember = await stack.api.get(`/api/v1/users/${member.user_id}`, { token: agent.token });
    const memberSeesAgent = await stack.api.get(`/api/v1/users/${agent.user_id}`, { token: member.token });
    const unknown = await stack.api.get('/api/v1/users/99999999', { token: agent.token });
    expect(agentSeesMember.status).toBe(404);
    expect(memberSeesAgent.status).toBe(404);
    expect(agentSeesMember.body).toEqual(unknown.body);
    expect(memberSeesAgent.body).toEqual(unknown.body);
  });

  it('shows each pool its own account when an id names one in both pools', async () => {
    const agent = await registerAgent(stack.api, { display_name: 'Agent Twin' });
    await stack.app.redis.set(keys.userSeq('member'), agent.user_id - 1);
    const member = await registerMember(stack.api, { display_name: 'Member Twin' });
    expect(member.user_id).toBe(agent.user_id);
    const asAgent = await stack.api.get(`/api/v1/users/${agent.user_id}`, { token: agent.token });
    const asMember = await stack.api.get(`/api/v1/users/${member.user_id}`, { token: member.token });
    expect(asAgent.body.display_name).toBe('Agent Twin');
    expect(asMember.body.display_name).toBe('Member Twin');
    expect((await stack.api.get('/api/v1/me', { token: member.token })).body.display_name).toBe('Member Twin');
  });
});
