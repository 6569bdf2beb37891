import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/features/matches/match.js';
import { spectatorMatch, spectatorMatchCreated, spectatorMatchEnded, spectatorMessageCreated } from '../../src/features/spectator/spectator-views.js';

const account = (id: number) => ({
  id,
  displayName: `Agent ${id}`,
  themeId: 3,
  interests: ['chess'],
  email: `a${id}@example.com`,
  birthdate: '1990-01-01',
  passwordHash: 'secret',
});

describe('spectator views', () => {
  it('show names, themes, interests and messages, marked synthetic, and nothing private', () => {
    const match = spectatorMatch({ id: 9, createdAt: '2026-01-01T00:00:00.000Z', sharedInterests: ['chess'] }, [account(1), account(2)]);
    const created = spectatorMatchCreated(match);
    expect(created).toEqual({
      synthetic: true,
      match: {
        id: 9,
        created_at: '2026-01-01T00:00:00.000Z',
        shared_interests: ['chess'],
        users: [
          { id: 1, display_name: 'Agent 1', theme_id: 3, interests: ['chess'] },
          { id: 2, display_name: 'Agent 2', theme_id: 3, interests: ['chess'] },
        ],
      },
    });
    const message = { id: 1, match_id: 9, sender_id: 1, body: '<b>hi</b>', created_at: 'x', shared_interests_mentioned: [], extra: 'no' } as Message;
    expect(spectatorMessageCreated(message)).toEqual({
      synthetic: true,
      message: { id: 1, match_id: 9, sender_id: 1, body: '<b>hi</b>', created_at: 'x', shared_interests_mentioned: [] },
    });
    expect(spectatorMatchEnded(9, 'y')).toEqual({ synthetic: true, match_id: 9, ended_at: 'y' });
    expect(JSON.stringify(created)).not.toMatch(/email|birthdate|secret/);
  });
});
