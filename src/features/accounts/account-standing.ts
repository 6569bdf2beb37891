import { errors, type AppError } from '../../platform/core/errors.js';
import type { TokenPrincipal } from '../../platform/core/principal.js';

/** An account's state: it acts, the operators suspended it, or it left (or never was). */
export type AccountState = 'active' | 'suspended' | 'gone';

/**
 * An account's standing: its state and its credentials epoch ("<epoch>" or "<epoch> <kept jti>" in the
 * epochs hash: lua/includes/next_epoch.lua). Every change of the standing moves the epoch on, so of two
 * standings of one account the one with the higher epoch is the newer; `gone` is final.
 */
export type Standing = { state: AccountState; epoch: number; kept?: string };

/** Why a token no longer holds, for a socket's close code and an HTTP refusal alike. */
export type Refusal = 'suspended' | 'gone' | 'revoked' | 'expired';

/** The epoch and kept token of an epochs hash field (absent: epoch 0). */
export function parseEpoch(field: string | null | undefined): { epoch: number; kept?: string } {
  if (!field) return { epoch: 0 };
  const [epoch, kept] = field.split(' ');
  return kept ? { epoch: Number(epoch), kept } : { epoch: Number(epoch) };
}

/** The newer of two standings of one account (either may be unknown). */
export function newerStanding(a: Standing | undefined, b: Standing): Standing {
  if (!a) return b;
  if (a.state === 'gone') return a;
  if (b.state === 'gone') return b;
  return b.epoch > a.epoch ? b : a;
}

/**
 * Why the token does not hold under the account's standing, or undefined when it does. The account's state
 * decides first, whatever else is true of the token: a suspended account's token is told so, a gone one's
 * that the account is gone; then expiry; then the token's own epoch (issued before the last change of the
 * standing, and not the one token kept) and its own revocation (a logout).
 */
export function refusalOf(claims: TokenPrincipal, standing: Standing, revoked: boolean, nowMs = Date.now()): Refusal | undefined {
  if (standing.state === 'suspended') return 'suspended';
  if (standing.state === 'gone') return 'gone';
  if (claims.exp * 1000 <= nowMs) return 'expired';
  const current = claims.epoch === standing.epoch || (claims.jti === standing.kept && claims.epoch === standing.epoch - 1);
  if (!current || revoked) return 'revoked';
  return undefined;
}

/** The HTTP error of a refusal. */
export function refusalError(refusal: Refusal): AppError {
  switch (refusal) {
    case 'suspended':
      return errors.accountSuspended();
    case 'gone':
      return errors.invalidToken("This token's account no longer exists; register or log in again.");
    case 'expired':
      return errors.invalidToken('This token has expired; log in again.');
    case 'revoked':
      return errors.invalidToken('This token was revoked (a logout, log out everywhere or a password change); log in again.');
  }
}
