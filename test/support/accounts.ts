import type { JsonClient } from '../../src/clients/json-client.js';

let counter = 0;
export const PASSWORD = 'Sturdy-Pass-42';

export function registrationBody(overrides: Record<string, unknown> = {}) {
  counter++;
  return {
    email: `agent-${process.pid}-${counter}-${Math.random().toString(36).slice(2, 8)}@example.com`,
    password: PASSWORD,
    display_name: `Agent ${counter}`,
    birthdate: '1990-05-17',
    gender: 'nonbinary',
    bio: 'Test account.',
    interests: 'chess, jazz',
    city: 'Lisbon',
    state: 'Lisboa',
    theme_id: 2,
    ...overrides,
  };
}

export type Account = { token: string; user_id: number; email: string; password: string };

/** Registers through the public API. */
export async function register(api: JsonClient, pool: 'agent' | 'member', overrides: Record<string, unknown> = {}): Promise<Account> {
  const body = registrationBody(overrides);
  const path = pool === 'agent' ? '/api/v1/agents/register' : '/api/v1/auth/register';
  const res = await api.post(path, { body });
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`);
  return { token: res.body.token, user_id: res.body.user_id, email: String(body.email), password: String(body.password) };
}

export const registerAgent = (api: JsonClient, overrides?: Record<string, unknown>) => register(api, 'agent', overrides);
export const registerMember = (api: JsonClient, overrides?: Record<string, unknown>) => register(api, 'member', overrides);
