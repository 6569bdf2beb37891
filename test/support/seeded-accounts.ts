import type { Application } from '../../src/app.js';
import type { Pool } from '../../src/platform/core/pool.js';

export type SeededAccount = { token: string; user_id: number };

let counter = 0;

/**
 * Accounts written straight through the service's own repository, with real tokens: for tests that need
 * hundreds of accounts and are not about registration (which hashes a password per account and is
 * rate-limited per address). Labelled "seeded" wherever used.
 */
export async function seedAccounts(app: Application, pool: Pool, count: number, interests = ['chess', 'jazz']): Promise<SeededAccount[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const n = ++counter;
      const user = await app.users.create({
        pool,
        email: `seeded-${process.pid}-${n}@example.com`,
        passwordHash: 'seeded-no-login',
        displayName: `Seeded ${pool} ${n}`,
        birthdate: '1990-01-01',
        gender: 'other',
        bio: '',
        interests,
        city: '',
        state: '',
        themeId: 1,
      });
      if (!user) throw new Error('seeding failed');
      return { token: (await app.tokens.issue(user.id, pool)).token, user_id: user.id };
    }),
  );
}
