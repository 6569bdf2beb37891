import argon2 from 'argon2';

// OWASP's argon2id baseline (19 MiB, 2 passes): about 20 ms a hash here, so registration and login
// stay cheap for the server yet costly for a guesser.
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => argon2.hash(password, OPTIONS);

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;
/** A hash to verify against when the account does not exist, so both failures take the same time. */
export const dummyHash = () => (dummy ??= hashPassword('not-a-real-password-Aa1!'));
