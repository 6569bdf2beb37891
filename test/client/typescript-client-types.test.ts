import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_TYPES_FILE, writeClientTypes } from '../../scripts/client-types.js';

describe("the TypeScript client's API types", () => {
  it('are what the OpenAPI document gives now (else run npm run clients:types)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-match-client-types-'));
    try {
      const fresh = join(dir, 'openapi.ts');
      await writeClientTypes(fresh);
      expect(readFileSync(CLIENT_TYPES_FILE, 'utf8'), 'clients/typescript/src/generated/openapi.ts is stale: run npm run clients:types').toBe(
        readFileSync(fresh, 'utf8'),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
