import { randomUUID } from 'node:crypto';
import { errors as jose, jwtVerify, SignJWT } from 'jose';
import { errors } from '../../platform/core/errors.js';
import type { Logger } from '../../platform/logger.js';
import { POOLS, type Pool } from '../../platform/core/pool.js';
import type { TokenPrincipal } from '../../platform/core/principal.js';
import { REVOCATION_CHANNEL, STANDING_CHANNEL } from '../../platform/redis/keys.js';
import { isStoreFullError } from '../../platform/redis/redis-errors.js';
import type { PubSub } from '../../platform/redis/pubsub.js';
import type { TokenRepository, TrackedToken } from './token-repository.js';
import { newerStanding, refusalError, refusalOf, type AccountState, type Refusal, type Standing } from './account-standing.js';

export type IssuedToken = { token: string; token_type: 'Bearer'; expires_at: string };

/** Something that keeps using tokens after verifying them once (open WebSockets, waiting inbox reads). */
export interface TokenHolder {
  /** The tokens it holds, re-checked against Redis after an interruption of the announcements. */
  heldTokens(): Iterable<TokenPrincipal>;
  /** Token `jti` no longer holds, for `refusal`: whatever it holds with it must stop at once. */
  tokenRefused(jti: string, refusal: Refusal): void;
}

type Account = { pool: Pool; userId: number };

const CACHE_LIMIT = 50_000;
/** Accounts and tokens re-checked per pipeline after the announcements were interrupted. */
const RECHECK_BATCH = 500;
const RECHECK_RETRY_MS = 1_000;

const accountOf = (claims: Account) => `${claims.pool}:${claims.userId}`;
const STATES: readonly AccountState[] = ['active', 'suspended', 'gone'];

/**
 * HS256 JWTs signed and verified with jose, each carrying its account's credentials epoch when it was
 * issued (`ep`). Verification goes through WebCrypto (~100 µs), so verified claims are kept in a bounded
 * cache, and so are the standings of their accounts (account-standing.ts): a cached token is answered
 * from memory, with the same rule Redis would give, and a token enters the cache only once Redis has
 * confirmed its standing. Every change of a standing (a password change, log out everywhere, a
 * suspension, a lift, leaving) moves the account's epoch on in the same script as the change and is
 * announced on pub/sub with it; the epoch orders the announcements, so a process keeps the newest
 * whatever order it hears them in. A single token's logout is announced by its id. Announcements made
 * while this process's subscriber was away are lost, so until it is back and every cached standing and
 * held token has been read from Redis again, each use of a token asks Redis.
 */
export class TokenService {
  private readonly cache = new Map<string, TokenPrincipal>();
  private readonly revoked = new Map<string, number>();
  /** The standings of the cached and held tokens' accounts ("<pool>:<id>"), as announced or as Redis answered. */
  private readonly standings = new Map<string, Standing>();
  private readonly holders: TokenHolder[] = [];
  /** False while announcements may have been missed: tokens are then checked against Redis on each use. */
  private feedTrusted = true;
  /** Bumped when the feed is lost and when a re-check starts: a read from Redis older than that is not cached. */
  private generation = 0;
  private pruneTimer?: NodeJS.Timeout;
  private recheckTimer?: NodeJS.Timeout;
  private stopped = false;
  private pubsub?: PubSub;

  constructor(
    private readonly store: TokenRepository,
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
    await pubsub.subscribe(STANDING_CHANNEL, (message) => {
      const [pool, id, epoch, state, kept] = message.split(' ');
      if (!POOLS.includes(pool as Pool) || !STATES.includes(state as AccountState)) return;
      this.learn({ pool: pool as Pool, userId: Number(id) }, { state: state as AccountState, epoch: Number(epoch), ...(kept ? { kept } : {}) });
    });
    pubsub.onInterrupted(() => {
      this.feedTrusted = false;
      this.generation++;
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

  /**
   * A new token of the account in credentials epoch `epoch` (read no later than the password it was
   * issued for), filed in its account's token set first; when the set is full, its oldest tokens are
   * revoked (announced once the service has started).
   */
  async issue(userId: number, pool: Pool, epoch = 0, now = Date.now()): Promise<IssuedToken> {
    const exp = Math.floor(now / 1000) + this.ttlSeconds;
    const jti = randomUUID();
    const evicted = await this.trackIssued(pool, userId, { jti, exp });
    if (evicted.length > 0) await this.revokeTracked(evicted, this.pubsub);
    const token = await new SignJWT({ pool, ep: epoch })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(userId))
      .setJti(jti)
      .setIssuedAt(Math.floor(now / 1000))
      .setExpirationTime(exp)
      .sign(this.secret);
    return { token, token_type: 'Bearer', expires_at: new Date(exp * 1000).toISOString() };
  }

  /**
   * Claims of a valid, unexpired token whose account stands as it did when it was issued; throws the
   * refusal's error otherwise (account-standing.ts). A token already in the cache is answered at once, not
   * through a promise: every authenticated request goes through here.
   */
  verify(token: string): TokenPrincipal | Promise<TokenPrincipal> {
    const cached = this.cache.get(token);
    if (!cached) return this.verifyFirstUse(token);
    const standing = this.knownStanding(cached);
    if (!standing) return this.verifyInStore(token, cached);
    const refusal = refusalOf(cached, standing, this.revoked.has(cached.jti));
    if (!refusal) return cached;
    this.cache.delete(token);
    throw refusalError(refusal);
  }

  /** Why a held token no longer holds, as far as this process knows for certain now (undefined: it holds, or Redis must say). */
  heldRefusal(claims: TokenPrincipal): Refusal | undefined {
    const standing = this.knownStanding(claims);
    return standing ? refusalOf(claims, standing, this.revoked.has(claims.jti)) : undefined;
  }

  /** Why the token no longer holds, asking Redis when this process cannot tell for certain; undefined when it holds. */
  async refusal(claims: TokenPrincipal): Promise<Refusal | undefined> {
    const standing = this.knownStanding(claims);
    if (standing) return refusalOf(claims, standing, this.revoked.has(claims.jti));
    return (await this.readStanding(claims)).refusal;
  }

  private async verifyFirstUse(token: string): Promise<TokenPrincipal> {
    const claims = await this.verifySignature(token);
    const generation = this.generation;
    const { refusal } = await this.readStanding(claims);
    if (refusal) throw refusalError(refusal);
    if (generation === this.generation) {
      if (this.cache.size >= CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(token, claims);
    }
    return claims;
  }

  private async verifyInStore(token: string, claims: TokenPrincipal): Promise<TokenPrincipal> {
    const { refusal } = await this.readStanding(claims);
    if (!refusal) return claims;
    this.cache.delete(token);
    throw refusalError(refusal);
  }

  /** The account's standing while this process can vouch for it: heard since its subscriber last came back. */
  private knownStanding(account: Account): Standing | undefined {
    return this.feedTrusted ? this.standings.get(accountOf(account)) : undefined;
  }

  /** Reads the token's standing from Redis, keeps it (the newer of it and what was known, unless the feed was lost meanwhile) and judges the token. */
  private async readStanding(claims: TokenPrincipal): Promise<{ refusal: Refusal | undefined }> {
    const generation = this.generation;
    const { standing, revoked } = await this.store.standing(claims);
    if (revoked) this.forget(claims.jti, claims.exp);
    const newest = newerStanding(this.standings.get(accountOf(claims)), standing);
    if (generation === this.generation) this.keep(accountOf(claims), newest);
    return { refusal: refusalOf(claims, newest, revoked || this.revoked.has(claims.jti)) };
  }

  async revoke(claims: TokenPrincipal, pubsub: PubSub): Promise<void> {
    const ttl = Math.max(1, claims.exp - Math.floor(Date.now() / 1000));
    await this.store.revoke(claims.jti, ttl);
    this.forget(claims.jti, claims.exp);
    await pubsub.publish(REVOCATION_CHANNEL, `${claims.jti} ${claims.exp}`);
  }

  /**
   * Files the token in its account's set; while Redis is full it cannot, and the token is issued untracked
   * (a login keeps working then, as every read does; only the cap of tokens per account does not count it).
   */
  private async trackIssued(pool: Pool, userId: number, token: TrackedToken): Promise<TrackedToken[]> {
    try {
      return await this.store.track(pool, userId, token, this.maxPerAccount);
    } catch (error) {
      if (isStoreFullError(error)) return [];
      throw error;
    }
  }

  private async revokeTracked(tokens: readonly TrackedToken[], pubsub?: PubSub): Promise<void> {
    const nowSeconds = Math.floor(Date.now() / 1000);
    await Promise.all(tokens.map((token) => this.store.revoke(token.jti, Math.max(1, token.exp - nowSeconds))));
    for (const token of tokens) this.forget(token.jti, token.exp);
    if (pubsub) await Promise.all(tokens.map((token) => pubsub.publish(REVOCATION_CHANNEL, `${token.jti} ${token.exp}`)));
  }

  /**
   * Log out everywhere: every token of the account issued so far stops working in every process, whatever
   * logins raced it (their tokens carry the old epoch), but `keep` when given; false when there is no such account.
   */
  async endSessions(account: Account, pubsub: PubSub, keep?: TokenPrincipal): Promise<boolean> {
    const epoch = await this.store.advanceEpoch(account.pool, account.userId, keep);
    if (epoch === undefined) return false;
    await this.announce(account, this.activeAt(epoch, keep), pubsub);
    return true;
  }

  /** The account's standing once its epoch moved on to `epoch`, `keep` kept when it was of the epoch before. */
  activeAt(epoch: number, keep?: TokenPrincipal): Standing {
    return keep && keep.epoch === epoch - 1 ? { state: 'active', epoch, kept: keep.jti } : { state: 'active', epoch };
  }

  /**
   * Tells every process the account's standing after a change written in Redis (this one first): its
   * tokens issued before are refused with the standing's answer, and whatever holds them stops.
   */
  async announce(account: Account, standing: Standing, pubsub: PubSub): Promise<void> {
    this.learn(account, standing);
    await pubsub.publish(STANDING_CHANNEL, `${account.pool} ${account.userId} ${standing.epoch} ${standing.state}${standing.kept ? ` ${standing.kept}` : ''}`);
  }

  /** Keeps the newer of `standing` and the one known, and ends the held tokens the newer one refuses. */
  private learn(account: Account, standing: Standing) {
    const key = accountOf(account);
    const known = this.standings.get(key);
    const newest = newerStanding(known, standing);
    if (newest === known) return;
    this.keep(key, newest);
    for (const holder of this.holders) {
      for (const claims of holder.heldTokens()) {
        if (accountOf(claims) !== key) continue;
        const refusal = refusalOf(claims, newest, this.revoked.has(claims.jti));
        if (refusal) holder.tokenRefused(claims.jti, refusal);
      }
    }
  }

  private keep(key: string, standing: Standing) {
    if (!this.standings.has(key) && this.standings.size >= CACHE_LIMIT) this.standings.delete(this.standings.keys().next().value!);
    this.standings.set(key, standing);
  }

  /** Marks the token revoked and ends whatever holds it, told why: its account's standing decides first, from Redis when this process cannot tell. */
  private forget(jti: string, exp: number) {
    const known = this.revoked.has(jti);
    this.revoked.set(jti, exp);
    if (known) return;
    for (const holder of this.holders) {
      for (const claims of holder.heldTokens()) {
        if (claims.jti !== jti) continue;
        const refusal = this.heldRefusal(claims);
        if (refusal) holder.tokenRefused(jti, refusal);
        else void this.refuseFromStore(holder, claims);
      }
    }
  }

  private async refuseFromStore(holder: TokenHolder, claims: TokenPrincipal): Promise<void> {
    try {
      holder.tokenRefused(claims.jti, (await this.refusal(claims)) ?? 'revoked');
    } catch (error) {
      this.logger?.warn({ err: (error as Error).message }, "could not read a revoked token's standing; ending it as revoked");
      holder.tokenRefused(claims.jti, 'revoked');
    }
  }

  /**
   * After the announcements were interrupted: the standing of every cached or held token's account, and
   * whether each token was revoked, are read from Redis again in pipelined batches; until that has
   * succeeded, each use asks Redis.
   */
  private async recheck(): Promise<void> {
    const generation = ++this.generation;
    try {
      await this.store.ready();
      const refused = await this.recheckAll(generation);
      if (generation !== this.generation) return;
      this.feedTrusted = true;
      this.logger?.info({ refused }, 'standing announcements restored; cached tokens re-checked');
    } catch (error) {
      if (generation !== this.generation || this.stopped) return;
      this.logger?.warn({ err: (error as Error).message }, 'could not re-check cached tokens; retrying');
      // A new interruption clears this timer; its own restore starts over.
      this.recheckTimer = setTimeout(() => void this.recheck(), RECHECK_RETRY_MS);
      this.recheckTimer.unref();
    }
  }

  private async recheckAll(generation: number): Promise<number> {
    const byJti = new Map<string, TokenPrincipal>();
    for (const claims of this.cache.values()) byJti.set(claims.jti, claims);
    for (const holder of this.holders) for (const claims of holder.heldTokens()) byJti.set(claims.jti, claims);
    const all = [...byJti.values()];
    const accounts = new Map<string, Account>();
    for (const claims of all) accounts.set(accountOf(claims), { pool: claims.pool, userId: claims.userId });
    const read = new Map<string, Standing>();
    const list = [...accounts];
    for (let i = 0; i < list.length; i += RECHECK_BATCH) {
      const batch = list.slice(i, i + RECHECK_BATCH);
      const standings = await Promise.all(batch.map(([, account]) => this.store.accountStanding(account.pool, account.userId)));
      batch.forEach(([key], n) => read.set(key, standings[n]!));
    }
    const revoked = new Set<string>();
    for (let i = 0; i < all.length; i += RECHECK_BATCH) {
      const batch = all.slice(i, i + RECHECK_BATCH);
      const found = await this.store.revokedAmong(batch.map((claims) => claims.jti));
      for (const jti of found) revoked.add(jti);
    }
    if (generation !== this.generation) return 0;
    // Announcements heard since the restore are newer than nothing read here; anything else known is dropped.
    for (const key of [...this.standings.keys()]) if (!read.has(key)) this.standings.delete(key);
    for (const [key, standing] of read) this.keep(key, newerStanding(this.standings.get(key), standing));
    for (const claims of all) if (revoked.has(claims.jti)) this.revoked.set(claims.jti, claims.exp);
    const refused = new Map<string, Refusal>();
    for (const claims of all) {
      const standing = this.standings.get(accountOf(claims)) ?? read.get(accountOf(claims))!;
      const refusal = refusalOf(claims, standing, this.revoked.has(claims.jti));
      if (refusal) refused.set(claims.jti, refusal);
    }
    if (refused.size > 0) {
      for (const [token, claims] of this.cache) if (refused.has(claims.jti)) this.cache.delete(token);
      for (const [jti, refusal] of refused) for (const holder of this.holders) holder.tokenRefused(jti, refusal);
    }
    return refused.size;
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
      // A token issued before tokens carried an epoch holds in epoch 0, until the account's first change of standing.
      const epoch = payload.ep ?? 0;
      if (
        !Number.isSafeInteger(userId) ||
        userId <= 0 ||
        !POOLS.includes(pool) ||
        typeof payload.jti !== 'string' ||
        !Number.isSafeInteger(epoch) ||
        (epoch as number) < 0
      ) {
        throw errors.invalidToken('This token is malformed; log in again.');
      }
      return { userId, pool, jti: payload.jti, exp: payload.exp!, epoch: epoch as number };
    } catch (error) {
      if (error instanceof jose.JWTExpired) throw refusalError('expired');
      if (error instanceof jose.JOSEError || error instanceof TypeError) {
        throw errors.invalidToken('This token is invalid (bad signature or format); log in or register to get a new one.');
      }
      throw error;
    }
  }
}

/** The token-signing secret: the configured one, or one generated once and shared through Redis. */
export async function resolveTokenSecret(store: TokenRepository, configured: string | undefined): Promise<{ secret: Uint8Array; generated: boolean }> {
  if (configured) return { secret: new TextEncoder().encode(configured), generated: false };
  const stored = await store.sharedSecret(randomUUID() + randomUUID());
  return { secret: new TextEncoder().encode(stored), generated: true };
}
