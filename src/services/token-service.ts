import { randomUUID } from 'node:crypto';
import { errors as jose, jwtVerify, SignJWT } from 'jose';
import type { Redis } from 'ioredis';
import { errors } from '../domain/errors.js';
import { keys, POOLS, REVOCATION_CHANNEL, type Pool } from '../store/keys.js';
import type { PubSub } from '../store/pubsub.js';

export type TokenClaims = { userId: number; pool: Pool; jti: string; exp: number };
export type IssuedToken = { token: string; token_type: 'Bearer'; expires_at: string };

const CACHE_LIMIT = 50_000;

/**
 * HS256 JWTs signed and verified with jose. Verification goes through WebCrypto (~100 µs), so verified
 * claims are kept in a bounded cache; revocations are announced on pub/sub and checked on every hit, so a
 * logged-out token stops working in every process at once.
 */
export class TokenService {
  private readonly cache = new Map<string, TokenClaims>();
  private readonly revoked = new Map<string, number>();
  private pruneTimer?: NodeJS.Timeout;

  constructor(
    private readonly redis: Redis,
    private readonly secret: Uint8Array,
    private readonly ttlSeconds: number,
  ) {}

  async start(pubsub: PubSub) {
    await pubsub.subscribe(REVOCATION_CHANNEL, (message) => {
      const [jti, exp] = message.split(' ');
      if (jti) this.forget(jti, Number(exp) || Date.now() / 1000 + this.ttlSeconds);
    });
    this.pruneTimer = setInterval(() => this.prune(), 60_000);
    this.pruneTimer.unref();
  }

  stop() {
    clearInterval(this.pruneTimer);
  }

  async issue(userId: number, pool: Pool, now = Date.now()): Promise<IssuedToken> {
    const exp = Math.floor(now / 1000) + this.ttlSeconds;
    const token = await new SignJWT({ pool })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(userId))
      .setJti(randomUUID())
      .setIssuedAt(Math.floor(now / 1000))
      .setExpirationTime(exp)
      .sign(this.secret);
    return { token, token_type: 'Bearer', expires_at: new Date(exp * 1000).toISOString() };
  }

  /**
   * Claims of a valid, unexpired, unrevoked token; throws `unauthorized` otherwise. A token already in the
   * cache is answered at once, not through a promise: every authenticated request goes through here.
   */
  verify(token: string): TokenClaims | Promise<TokenClaims> {
    const cached = this.cache.get(token);
    if (!cached) return this.verifyFirstUse(token);
    if (cached.exp * 1000 > Date.now() && !this.revoked.has(cached.jti)) return cached;
    this.cache.delete(token);
    throw errors.unauthorized(this.revoked.has(cached.jti) ? 'This token was revoked; log in again.' : 'This token has expired; log in again.');
  }

  private async verifyFirstUse(token: string): Promise<TokenClaims> {
    const claims = await this.verifySignature(token);
    if (this.revoked.has(claims.jti) || (await this.redis.exists(keys.revokedToken(claims.jti))) === 1) {
      throw errors.unauthorized('This token was revoked; log in again.');
    }
    if (this.cache.size >= CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(token, claims);
    return claims;
  }

  async revoke(claims: TokenClaims, pubsub: PubSub): Promise<void> {
    const ttl = Math.max(1, claims.exp - Math.floor(Date.now() / 1000));
    await this.redis.set(keys.revokedToken(claims.jti), '1', 'EX', ttl);
    this.forget(claims.jti, claims.exp);
    await pubsub.publish(REVOCATION_CHANNEL, `${claims.jti} ${claims.exp}`);
  }

  private forget(jti: string, exp: number) {
    this.revoked.set(jti, exp);
  }

  private prune() {
    const nowSeconds = Date.now() / 1000;
    for (const [jti, exp] of this.revoked) if (exp < nowSeconds) this.revoked.delete(jti);
    for (const [token, claims] of this.cache) if (claims.exp < nowSeconds) this.cache.delete(token);
  }

  private async verifySignature(token: string): Promise<TokenClaims> {
    try {
      const { payload } = await jwtVerify(token, this.secret, { algorithms: ['HS256'], requiredClaims: ['sub', 'jti', 'exp'] });
      const userId = Number(payload.sub);
      const pool = payload.pool as Pool;
      if (!Number.isSafeInteger(userId) || userId <= 0 || !POOLS.includes(pool) || typeof payload.jti !== 'string') {
        throw errors.unauthorized('This token is malformed; log in again.');
      }
      return { userId, pool, jti: payload.jti, exp: payload.exp! };
    } catch (error) {
      if (error instanceof jose.JWTExpired) throw errors.unauthorized('This token has expired; log in again.');
      if (error instanceof jose.JOSEError || error instanceof TypeError) {
        throw errors.unauthorized('This token is invalid (bad signature or format); log in or register to get a new one.');
      }
      throw error;
    }
  }
}

/** The token-signing secret: the configured one, or one generated once and shared through Redis. */
export async function resolveTokenSecret(redis: Redis, configured: string | undefined): Promise<{ secret: Uint8Array; generated: boolean }> {
  if (configured) return { secret: new TextEncoder().encode(configured), generated: false };
  const candidate = randomUUID() + randomUUID();
  await redis.set(keys.tokenSecret(), candidate, 'NX');
  const stored = await redis.get(keys.tokenSecret());
  return { secret: new TextEncoder().encode(stored ?? candidate), generated: true };
}
