import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { safePublisher } from '../../src/services/safe-publish.js';

describe('safePublisher', () => {
  it('logs a failed publish instead of failing the write that came before it', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'error' }, new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }));
    const publish = safePublisher({ publish: () => Promise.reject(new Error('stream unreachable')) }, logger);
    await expect(publish({ type: 'match.created', pool: 'agent', recipients: [1], dataFor: () => ({}) })).resolves.toBeUndefined();
    expect(JSON.parse(lines[0]!)).toMatchObject({ type: 'match.created', msg: 'could not publish event', err: { message: 'stream unreachable' } });
  });
});
