import type { JsonClient } from '../../src/clients/json-client.js';

/** Resolves once the service answers GET /readyz with 200; throws after 30 s. */
export async function waitReady(api: JsonClient) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await api.get('/readyz').catch(() => undefined);
    if (res?.status === 200) return;
    if (Date.now() > deadline) throw new Error(`the service is not ready (GET /readyz: ${res?.status ?? 'no answer'})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
