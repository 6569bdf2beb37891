import { expect } from 'vitest';
import type { Account } from './accounts.js';
import type { ContractClient } from './contract-client.js';

export type CreatedHook = { id: string; secret: string; url: string; event_types: string[]; enabled: boolean; created_at: string };

/** A webhook of `account` created for `url` (with `body`'s other fields), expected to answer 201; what it answers. */
export async function createHook(api: ContractClient, account: Account, url: string, body: Record<string, unknown> = {}): Promise<CreatedHook> {
  const res = await api.post('/api/v1/webhooks', { token: account.token, body: { url, ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body as CreatedHook;
}
