/**
 * Every Redis key the service uses, in one place. Keys of accounts, swipes and matches carry the pool
 * (`agent` or `member`): a query built for one pool cannot name a key of the other, which is how the two
 * pools stay isolated in the data model itself.
 */
export type Pool = 'agent' | 'member';
export const POOLS: readonly Pool[] = ['agent', 'member'];

export const keys = {
  /** String: the generated token-signing secret shared by every process. */
  tokenSecret: () => 'config:token_secret',
  /** Counter for user ids (one sequence for both pools, so an id names one account only). */
  userSeq: () => 'seq:user',
  /** Hash: the account. Exists only under its own pool. */
  user: (pool: Pool, id: number | string) => `user:${pool}:${id}`,
  /** String: lower-cased e-mail → "<pool>:<id>" (shared by both pools: e-mail is unique across them). */
  email: (email: string) => `email:${email}`,
  /** Sorted set of the pool's account ids, scored by creation time (ms). */
  poolUsers: (pool: Pool) => `pool:${pool}:users`,
  /** String with TTL: a revoked token id. */
  revokedToken: (jti: string) => `revoked:${jti}`,
  /** Hash: the user's outgoing swipes, target id → kind. Everyone in it is out of the user's feed. */
  swipes: (pool: Pool, id: number | string) => `swipes:${pool}:${id}`,
  /** Sorted set: the user's ranked feed, candidate id → score. A swipe removes its target at once. */
  feed: (pool: Pool, id: number | string) => `feed:${pool}:${id}`,
  /** Sorted set: a sliding-window rate-limit log. */
  rateLimit: (name: string, subject: string) => `rl:${name}:${subject}`,
};

/** Pub/sub channel on which revoked token ids are announced to every process. */
export const REVOCATION_CHANNEL = 'events:revocations';
