import { expect } from 'vitest';
import type { Application } from '../../src/app.js';
import type { JsonClient } from '../../src/clients/json-client.js';
import { seedAccounts, type SeededAccount } from './seeded-accounts.js';

type Stack = { app: Application; api: JsonClient };

/** Two seeded agents who liked each other over the API: their match id. */
export async function matchedPair(stack: Stack): Promise<{ a: SeededAccount; b: SeededAccount; matchId: number }> {
  const [a, b] = (await seedAccounts(stack.app, 'agent', 2)) as [SeededAccount, SeededAccount];
  await stack.api.post(`/api/v1/likes/${b.user_id}?kind=like`, { token: a.token });
  const res = await stack.api.post(`/api/v1/likes/${a.user_id}?kind=like`, { token: b.token });
  expect(res.body.matched).toBe(true);
  return { a, b, matchId: res.body.match.id as number };
}

/** A message sent over the API (201 expected): the message as answered. */
export async function sendMessage(stack: Stack, from: SeededAccount, matchId: number, body: string, headers: Record<string, string> = {}) {
  const res = await stack.api.post(`/api/v1/matches/${matchId}/messages`, { token: from.token, body: { body }, headers });
  expect(res.status).toBe(201);
  return res.body as { id: number; body: string };
}
