import { randomUUID } from 'node:crypto';
import { errors as jose, jwtVerify, SignJWT } from 'jose';
import { errors } from '../../platform/core/errors.js';
import type { Logger } from '../../platform/logger.js';
import { POOLS, type Pool } from '../../platform/core/pool.js';
import type { TokenPrincipal } from '../../platform/core/principal.js';
import { REVOCATION_CHANNEL, SUSPENSION_CHANNEL } from '../../platform/redis/keys.js';
import { isStoreFullError } from '../../platform/redis/redis-errors.js';
import type { PubSub } from '../../platform/redis/pubsub.js';
import type { TokenStore, TrackedToken } from './token-repository.js';

export type IssuedToken = { token: string; token_type: 'Bearer'; expires_at: string };

/** Something that keeps using tokens after verifying them once (open WebSockets). */
export interface TokenHolder {
  /** The tokens it holds, re-checked with the cached ones after an interruption of the revocation feed. */
  heldTokens(): Iterable<TokenPrincipal>;
  /** Token `jti` no longer holds: it was revoked, or its account is gone. */
  tokenRevoked(jti: string): void;
}

const CACHE_LIMIT = 50_000;
/** Tokens re-checked per pipeline after the revocation feed was interrupted. */
const RECHECK_BATCH = 500;
const RECHECK_RETRY_MS = 1_000;

const revokedError = () => errors.invalidToken('This token was revoked; log in again.');
const accountGoneError = () => errors.invalidToken("This token's account no longer exists; register or log in again.");
const accountOf = (claims: { pool: Pool; userId: number }) => `${claims.pool}:${claims.userId}`;

/**
 * HS256 JWTs signed and verified with jose. Verification goes through WebCrypto (~100 µs), so verified
 * claims are kept in a bounded cache; a token enters it only once Redis has confirmed that it is not
 * revoked and that its account exists. Revocations are announced on pub/sub and checked on every hit, so a
 * logged-out token stops working in every process at once. Announcements made while this process's
 * subscriber was away are lost, so until it is back and every cached or held token has been checked against
 * Redis again, each use of a cached token asks Redis.
 */
export class TokenService {
  private readonly cache = new Map<string, TokenPrincipal>();
  private readonly revoked = new Map<string, number>();
  /**
   * Accounts known suspended ("<pool>:<id>"), as announced or as Redis answered: a cached token of one is
   * refused without asking Redis. Rebuilt from Redis when the feed comes back after an interruption.
   */
  private readonly suspended = new Set<string>();
  private readonly holders: TokenHolder[] = [];
  /** False while revocations may have been missed: cached tokens are then checked against Redis on each use. */
  private feedTrusted = true;
  /** Bumped when the feed is lost and when a re-check starts: a first-use check older than that is not cached. */
  private epoch = 0;
  private pruneTimer?: NodeJS.Timeout;
  private recheckTimer?: NodeJS.Timeout;
  private stopped = false;
  private pubsub?: PubSub;

  constructor(
    private readonly store: TokenStore,
    private readonly secret: Uint8Array,
    private readonly ttlSeconds: number,
    private readonly logger?: Logger,
    /** Unexpired tokens an account may hold; issuing one more revokes its oldest. */
    private readonly maxPerAccount = 32,
  ) {}

  async start(pubsub: PubSub) {
    this.pubsub = pubsub;
    await pubsub.subscribe(REVOCATION_CHANNEL, (message) => {
      const [jti, exp] = message.split(' ');
      if (jti) this.forget(jti, Number(exp) || Date.now() / 1000 + this.ttlSeconds);
    });
    await pubsub.subscribe(SUSPENSION_CHANNEL, (message) => {
      const [change, pool, id] = message.split(' ');
      if (!pool || !id) return;
      if (change === 'suspend') this.suspendLocally(`${pool}:${id}`);
      else this.suspended.delete(`${pool}:${id}`);
    });
    pubsub.onInterrupted(() => {
      this.feedTrusted = false;
      this.epoch++;
      clearTimeout(this.recheckTimer);
    });
    pubsub.onRestored(() => this.recheck());
    this.pruneTimer = setInterval(() => this.prune(), 60_000);
    this.pruneTimer.unref();
  }

  stop() {
    this.stopped = true;
    clearInterval(this.pruneTimer);
    clearTimeout(this.recheckTimer);
  }

  addHolder(holder: TokenHolder) {
    this.holders.push(holder);
  }

  isRevoked(jti: string): boolean {
    return this.revoked.has(jti);
  }

  /**
   * A new token, filed in its account's token set first (so that "log out everywhere" finds it); when the set
   * is full, its oldest tokens are revoked (announced once the service has started).
   */
  async issue(userId: number, pool: Pool, now = Date.now()): Promise<IssuedToken> {
    const exp = Math.floor(now / 1000) + this.ttlSeconds;
    const jti = randomUUID();
    const evicted = await this.trackIssued(pool, userId, { jti, exp });
    if (evicted.length > 0) await this.revokeTracked(evicted, this.pubsub);
    const token = await new SignJWT({ pool })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(userId))
      .setJti(jti)
      .setIssuedAt(Math.floor(now / 1000))
      .setExpirationTime(exp)
      .sign(this.secret);
    return { token, token_type: 'Bearer', expires_at: new Date(exp * 1000).toISOString() };
  }

  /**
   * Claims of a valid, unexpired, unrevoked token of an existing account; throws `unauthorized` otherwise. A
   * token already in the cache is answered at once, not through a promise: every authenticated request goes
   * through here.
   */
  verify(token: string): TokenPrincipal | Promise<TokenPrincipal> {
    const cached = this.cache.get(token);
    if (!cached) return this.verifyFirstUse(token);
    if (this.suspended.has(accountOf(cached))) {
      this.cache.delete(token);
      throw errors.accountSuspended();
    }
    if (cached.exp * 1000 > Date.now() && !this.revoked.has(cached.jti)) return this.feedTrusted ? cached : this.verifyInStore(token, cached);
    this.cache.delete(token);
    throw this.revoked.has(cached.jti) ? revokedError() : errors.invalidToken('This token has expired; log in again.');
  }

  private async verifyFirstUse(token: string): Promise<TokenPrincipal> {
    const claims = await this.verifySignature(token);
    if (this.revoked.has(claims.jti)) throw this.suspended.has(accountOf(claims)) ? errors.accountSuspended() : revokedError();
    const epoch = this.epoch;
    await this.checkInStore(claims);
    if (epoch === this.epoch) {
      if (this.cache.size >= CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(token, claims);
    }
    return claims;
  }

  private async verifyInStore(token: string, claims: TokenPrincipal): Promise<TokenPrincipal> {
    try {
      await this.checkInStore(claims);
    } catch (error) {
      this.cache.delete(token);
      throw error;
    }
    return claims;
  }

  private async checkInStore(claims: TokenPrincipal): Promise<void> {
    const { revoked, accountExists, suspended } = await this.store.standing(claims);
    if (suspended) {
      if (revoked) this.forget(claims.jti, claims.exp);
      this.suspendLocally(accountOf(claims));
      throw errors.accountSuspended();
    }
    this.suspended.delete(accountOf(claims));
    if (revoked) {
      this.forget(claims.jti, claims.exp);
      throw revokedError();
    }
    if (!accountExists) throw accountGoneError();
  }

  async revoke(claims: TokenPrincipal, pubsub: PubSub): Promise<void> {
    const ttl = Math.max(1, claims.exp - Math.floor(Date.now() / 1000));
    await this.store.revoke(claims.jti, ttl);
    this.forget(claims.jti, claims.exp);
    await pubsub.publish(REVOCATION_CHANNEL, `${claims.jti} ${claims.exp}`);
  }

  /**
   * Files the token in its account's set; while Redis is full it cannot, and the token is issued untracked
   * (a login keeps working then, as every read does; log out everywhere does not reach that token).
   */
  private async trackIssued(pool: Pool, userId: number, token: TrackedToken): Promise<TrackedToken[]> {
    try {
      return await this.store.track(pool, userId, token, this.maxPerAccount);
    } catch (error) {
      if (isStoreFullError(error)) return [];
      throw error;
    }
  }

  /**
   * Revokes every unexpired token of the account but `keepJti` (when given), in every process: each is marked
   * revoked and announced, as a logout does, then taken out of the account's set. Bounded by the set's cap.
   */
  async revokeAccount(account: { pool: Pool; userId: number }, pubsub: PubSub, keepJti?: string): Promise<number> {
    const tracked = (await this.store.tracked(account.pool, account.userId)).filter((token) => token.jti !== keepJti);
    await this.revokeTracked(tracked, pubsub);
    await this.store.untrack(account.pool, account.userId, tracked.map((token) => token.jti));
    return tracked.length;
  }

  private async revokeTracked(tokens: readonly TrackedToken[], pubsub?: PubSub): Promise<void> {
    const nowSeconds = Math.floor(Date.now() / 1000);
    await Promise.all(tokens.map((token) => this.store.revoke(token.jti, Math.max(1, token.exp - nowSeconds))));
    for (const token of tokens) this.forget(token.jti, token.exp);
    if (pubsub) await Promise.all(tokens.map((token) => pubsub.publish(REVOCATION_CHANNEL, `${token.jti} ${token.exp}`)));
  }

  /**
   * Suspends the account in every process: announced first (each process then refuses its cached tokens
   * and closes its sockets), then every token of it revoked, so none works again after a lift either.
   * Tokens issued while the suspension was being written are refused on their first use, which asks Redis.
   */
  async suspendAccount(account: { pool: Pool; userId: number }, pubsub: PubSub): Promise<void> {
    this.suspendLocally(accountOf(account));
    await pubsub.publish(SUSPENSION_CHANNEL, `suspend ${account.pool} ${account.userId}`);
    await this.revokeAccount(account, pubsub);
  }

  /** Announces a lifted suspension to every process (the account logs in again: its old tokens stay revoked). */
  async liftAccount(account: { pool: Pool; userId: number }, pubsub: PubSub): Promise<void> {
    this.suspended.delete(accountOf(account));
    await pubsub.publish(SUSPENSION_CHANNEL, `lift ${account.pool} ${account.userId}`);
  }

  /**
   * Remembers the account suspended (bounded: the oldest is forgotten, and Redis tells again) and ends its
   * held tokens here; once only, so refusing a suspended account's requests does not walk every socket.
   */
  private suspendLocally(account: string) {
    if (this.suspended.has(account)) return;
    if (this.suspended.size >= CACHE_LIMIT) this.suspended.delete(this.suspended.values().next().value!);
    this.suspended.add(account);
    for (const holder of this.holders) {
      for (const claims of holder.heldTokens()) if (accountOf(claims) === account) holder.tokenRevoked(claims.jti);
    }
  }

  private forget(jti: string, exp: number) {
    const known = this.revoked.has(jti);
    this.revoked.set(jti, exp);
    if (!known) for (const holder of this.holders) holder.tokenRevoked(jti);
  }

  /**
   * After the revocation feed was interrupted: every cached or held token is checked against Redis again
   * (revoked, or account gone), in pipelined batches; until that has succeeded, each use asks Redis.
   */
  private async recheck(): Promise<void> {
    const epoch = ++this.epoch;
    try {
      await this.store.ready();
      const { revoked, gone } = await this.recheckAll();
      if (epoch !== this.epoch) return;
      this.feedTrusted = true;
      this.logger?.info({ revoked, gone }, 'revocation feed restored; cached tokens re-checked');
    } catch (error) {
      if (epoch !== this.epoch || this.stopped) return;
      this.logger?.warn({ err: (error as Error).message }, 'could not re-check cached tokens; retrying');
      // A new interruption clears this timer; its own restore starts over.
      this.recheckTimer = setTimeout(() => void this.recheck(), RECHECK_RETRY_MS);
      this.recheckTimer.unref();
    }
  }

  private async recheckAll(): Promise<{ revoked: number; gone: number }> {
    const byJti = new Map<string, TokenPrincipal>();
    for (const claims of this.cache.values()) byJti.set(claims.jti, claims);
    for (const holder of this.holders) for (const claims of holder.heldTokens()) byJti.set(claims.jti, claims);
    const all = [...byJti.values()];
    const goneJtis = new Set<string>();
    let revoked = 0;
    // Suspensions and lifts announced while the feed was away are missed too: the set is rebuilt from Redis.
    this.suspended.clear();
    for (let i = 0; i < all.length; i += RECHECK_BATCH) {
      const batch = all.slice(i, i + RECHECK_BATCH);
      const standings = await this.store.standings(batch);
      batch.forEach((claims, n) => {
        const standing = standings[n]!;
        if (standing.suspended) this.suspended.add(accountOf(claims));
        if (standing.revoked) {
          revoked++;
          this.forget(claims.jti, claims.exp);
        } else if (!standing.accountExists || standing.suspended) {
          goneJtis.add(claims.jti);
        }
      });
    }
    if (goneJtis.size > 0) {
      for (const [token, claims] of this.cache) if (goneJtis.has(claims.jti)) this.cache.delete(token);
      for (const jti of goneJtis) for (const holder of this.holders) holder.tokenRevoked(jti);
    }
    return { revoked, gone: goneJtis.size };
  }

  private prune() {
    const nowSeconds = Date.now() / 1000;
    for (const [jti, exp] of this.revoked) if (exp < nowSeconds) this.revoked.delete(jti);
    for (const [token, claims] of this.cache) if (claims.exp < nowSeconds) this.cache.delete(token);
  }

  private async verifySignature(token: string): Promise<TokenPrincipal> {
    try {
      const { payload } = await jwtVerify(token, this.secret, { algorithms: ['HS256'], requiredClaims: ['sub', 'jti', 'exp'] });
      const userId = Number(payload.sub);
      const pool = payload.pool as Pool;
      if (!Number.isSafeInteger(userId) || userId <= 0 || !POOLS.includes(pool) || typeof payload.jti !== 'string') {
        throw errors.invalidToken('This token is malformed; log in again.');
      }
      return { userId, pool, jti: payload.jti, exp: payload.exp! };
    } catch (error) {
      if (error instanceof jose.JWTExpired) throw errors.invalidToken('This token has expired; log in again.');
      if (error instanceof jose.JOSEError || error instanceof TypeError) {
        throw errors.invalidToken('This token is invalid (bad signature or format); log in or register to get a new one.');
      }
      throw error;
    }
  }
}

/** The token-signing secret: the configured one, or one generated once and shared through Redis. */
export async function resolveTokenSecret(store: TokenStore, configured: string | undefined): Promise<{ secret: Uint8Array; generated: boolean }> {
  if (configured) return { secret: new TextEncoder().encode(configured), generated: false };
  const stored = await store.sharedSecret(randomUUID() + randomUUID());
  return { secret: new TextEncoder().encode(stored), generated: true };
}
