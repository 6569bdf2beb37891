import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAgent } from '../support/accounts.js';
import { startStack } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startStack>>;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

describe('smoke', () => {
  it('registers and reads me', async () => {
    const a = await registerAgent(stack.api);
    const me = await stack.api.get('/api/v1/me', { token: a.token });
    expect(me.status).toBe(200);
    expect(me.body.is_agent).toBe(true);
  });
});
