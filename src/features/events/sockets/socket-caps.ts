import { AppError } from '../../../platform/core/errors.js';

/** What a refused client is told to wait before trying again (someone else's socket may have closed by then). */
const RETRY_AFTER_SECONDS = 5;

const tooMany = (what: string, limit: number) =>
  new AppError(
    'rate_limited',
    `Too many open WebSockets ${what} (at most ${limit}); close one before opening another.`,
    undefined,
    { retryAfterSeconds: RETRY_AFTER_SECONDS },
    { retry_after_seconds: RETRY_AFTER_SECONDS, limit },
  );

/**
 * Open WebSockets (and upgrades under way) counted per client address and per token, in this process only.
 * A place is taken before the upgrade is answered and given back when it is refused or the socket closes.
 */
export class SocketCaps {
  private readonly perAddress = new Map<string, number>();
  private readonly perToken = new Map<string, number>();

  constructor(private readonly limits: { maxPerIp: number; maxPerToken: number }) {}

  /** Takes a place for `ip`; throws a 429 when the address already holds its share. */
  takeAddress(ip: string) {
    take(this.perAddress, ip, this.limits.maxPerIp, () => tooMany('from this address', this.limits.maxPerIp));
  }

  releaseAddress(ip: string) {
    release(this.perAddress, ip);
  }

  /** Takes a place for the token `jti`; throws a 429 when the token already holds its share. */
  takeToken(jti: string) {
    take(this.perToken, jti, this.limits.maxPerToken, () => tooMany('with this token', this.limits.maxPerToken));
  }

  releaseToken(jti: string) {
    release(this.perToken, jti);
  }

  /** Places held right now (for metrics and tests). */
  get held() {
    let addresses = 0;
    for (const n of this.perAddress.values()) addresses += n;
    let tokens = 0;
    for (const n of this.perToken.values()) tokens += n;
    return { addresses, tokens };
  }
}

function take(counts: Map<string, number>, key: string, limit: number, refusal: () => AppError) {
  const held = counts.get(key) ?? 0;
  if (held >= limit) throw refusal();
  counts.set(key, held + 1);
}

function release(counts: Map<string, number>, key: string) {
  const held = counts.get(key) ?? 0;
  if (held <= 1) counts.delete(key);
  else counts.set(key, held - 1);
}
