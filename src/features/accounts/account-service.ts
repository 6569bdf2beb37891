import type { PasswordChange, ProfileUpdate, Registration } from './account-schemas.js';
import { errors } from '../../platform/core/errors.js';
import { ownProfile, publicProfile, type ProfileFieldOf, type PublicProfile } from './profile.js';
import type { Pool } from '../../platform/core/pool.js';
import type { PubSub } from '../../platform/redis/pubsub.js';
import type { NewUser, ProfileChanges, UserRecord, UserRepository } from './user-repository.js';
import { dummyHash, hashPassword, verifyPassword } from './password-hasher.js';
import type { IssuedToken, TokenService } from './token-service.js';
import type { SuspensionRepository } from './suspension-repository.js';
import type { Principal, TokenPrincipal } from '../../platform/core/principal.js';
import type { LeavingAccount, LeavingRepository } from './leaving-repository.js';
import type { HiddenAccountsRepository } from './hidden-accounts-repository.js';

/** Told to whoever registers a member: an agent that called the members' route by mistake learns it here. */
export const MEMBER_NOTE =
  'This account is a real member account: it sees and reaches real members only, never AI agents (its feed holds no agents, and agents are 404 to it). AI agents register at POST /api/v1/agents/register instead.';

export const AGENT_NOTE =
  'This account is an AI agent account, isolated to other AI agents only: it sees, matches and messages agents, never real members, and its matches and conversations are shown publicly on /spectator, labelled synthetic.';

// A field added to the registration or update schema fails to compile here until the profile stores it.
type UnstoredFields = Exclude<ProfileFieldOf<keyof Registration | keyof ProfileUpdate>, keyof NewUser | 'password'>;
const everyRequestFieldStored: [UnstoredFields] extends [never] ? true : UnstoredFields = true;
void everyRequestFieldStored;

/**
 * Told of every account created or changed (after the account was written and its index entries
 * applied, or left pending for the outbox sweeper), for outbox work such as feed ranking.
 */
export interface ProfileListener {
  profileSaved(user: UserRecord, previous?: UserRecord): Promise<void>;
}

export class AccountService {
  private readonly listeners: ProfileListener[] = [];

  constructor(
    private readonly users: UserRepository,
    private readonly tokens: TokenService,
    private readonly pubsub: PubSub,
    private readonly leaving?: LeavingRepository,
    private readonly suspensions?: SuspensionRepository,
    private readonly hidden?: HiddenAccountsRepository,
  ) {}

  addListener(listener: ProfileListener) {
    this.listeners.push(listener);
  }

  async register(pool: Pool, input: Registration): Promise<IssuedToken & { user_id: number; account_type: Pool; note: string }> {
    if (await this.users.emailExists(pool, input.email)) throw errors.emailTaken();
    const user = await this.users.create({
      pool,
      email: input.email,
      passwordHash: await hashPassword(input.password),
      displayName: input.display_name,
      birthdate: input.birthdate,
      gender: input.gender,
      bio: input.bio ?? '',
      interests: input.interests ?? [],
      city: input.city ?? '',
      state: input.state ?? '',
      themeId: input.theme_id ?? 1,
    });
    if (!user) throw errors.emailTaken();
    await this.notify(user);
    const token = await this.tokens.issue(user.id, pool, 0);
    return { ...token, user_id: user.id, account_type: pool, note: pool === 'agent' ? AGENT_NOTE : MEMBER_NOTE };
  }

  /**
   * E-mails are a namespace per pool. With `pool`, the account of that pool; without it, the agent
   * account of the e-mail, then its member account: the first whose password matches (each pool's
   * password is checked, so an e-mail held in both pools logs into the one the password opens).
   */
  async login(email: string, password: string, pool?: Pool): Promise<IssuedToken & { user_id: number; account_type: Pool }> {
    const pools: Pool[] = pool ? [pool] : ['agent', 'member'];
    let found = false;
    for (const candidate of pools) {
      const account = await this.users.findForLogin(candidate, email);
      if (!account) continue;
      found = true;
      const { user, epoch } = account;
      if (!(await verifyPassword(user.passwordHash, password))) continue;
      // Told only to whoever knows the password.
      if (await this.suspensions?.find(user.pool, user.id)) throw errors.accountSuspended();
      return { ...(await this.tokens.issue(user.id, user.pool, epoch)), user_id: user.id, account_type: user.pool };
    }
    // The same cost whether or not the e-mail exists.
    if (!found) await verifyPassword(await dummyHash(), password);
    throw errors.invalidCredentials();
  }

  logout(claims: TokenPrincipal): Promise<void> {
    return this.tokens.revoke(claims, this.pubsub);
  }

  /** Ends every token of the caller's account issued so far, in every process (their sockets are closed). */
  async logoutEverywhere(claims: TokenPrincipal): Promise<void> {
    if (!(await this.tokens.endSessions(claims, this.pubsub))) throw errors.invalidToken('This account no longer exists.');
  }

  /**
   * Changes the password once the current one is confirmed and, in the same step, ends every other token
   * of the account issued before (logins that checked the old password included); the caller's token keeps working.
   */
  async changePassword(claims: TokenPrincipal, change: PasswordChange): Promise<void> {
    const user = await this.requireSelf(claims);
    if (!(await verifyPassword(user.passwordHash, change.current_password))) throw errors.wrongPassword();
    const epoch = await this.users.changePassword(claims.pool, claims.userId, await hashPassword(change.new_password), claims);
    if (epoch === undefined) throw errors.unauthorized('This account no longer exists.');
    await this.tokens.announce(claims, this.tokens.activeAt(epoch, claims), this.pubsub);
  }

  /**
   * Begins the caller's erasure once its password is confirmed: the account is marked leaving and its
   * profile is gone in one step (it can no longer log in or act), then every process is told that it is
   * gone (its tokens are refused, its sockets closed). The rest of the erasure is the caller's to carry out.
   */
  async leave(claims: Principal, password: string): Promise<LeavingAccount> {
    if (!this.leaving) throw new Error('leaving is not configured');
    const user = await this.requireSelf(claims);
    if (!(await verifyPassword(user.passwordHash, password))) throw errors.wrongPassword('nothing was erased');
    const begun = await this.leaving.begin(user);
    if (!begun && !(await this.leaving.marker(user.pool, user.id))) throw errors.invalidToken('This account no longer exists.');
    await this.endSessions(claims);
    return { pool: user.pool, id: user.id, email: user.email, at: Date.now() };
  }

  /** Tells every process that the account is gone: its tokens are refused as such and its sockets closed. */
  async endSessions(account: Principal): Promise<void> {
    await this.tokens.announce(account, { state: 'gone', epoch: 0 }, this.pubsub);
  }

  async me(claims: Principal) {
    return ownProfile(await this.requireSelf(claims));
  }

  async updateMe(claims: Principal, update: ProfileUpdate) {
    // Every field named (undefined: unchanged), so a field added to the profile fails to compile here until mapped.
    const changes: { [K in keyof Required<ProfileChanges>]: ProfileChanges[K] } = {
      displayName: update.display_name,
      birthdate: update.birthdate,
      gender: update.gender,
      bio: update.bio,
      interests: update.interests,
      city: update.city,
      state: update.state,
      themeId: update.theme_id,
    };
    const updated = await this.users.update(claims.pool, claims.userId, changes);
    if (!updated) throw errors.invalidToken('This account no longer exists.');
    const { user, previous } = updated;
    await this.notify(user, previous);
    return ownProfile(user);
  }

  /**
   * Another account's public profile, looked up in the caller's pool only. A suspended account, and one a
   * block separates from the caller (either way), is answered exactly as an absent one, as in feeds and browse.
   */
  async profile(claims: Principal, userId: number): Promise<PublicProfile> {
    const [user, suspended, hidden] = await Promise.all([
      this.users.find(claims.pool, userId),
      this.suspensions?.suspendedAmong(claims.pool, [userId]),
      this.hidden?.among(claims.pool, claims.userId, [userId]),
    ]);
    if (!user || suspended?.has(userId) || hidden?.has(userId)) throw errors.notFound('user');
    return publicProfile(user);
  }

  private async requireSelf(claims: Principal): Promise<UserRecord> {
    const user = await this.users.find(claims.pool, claims.userId);
    if (!user) throw errors.invalidToken('This account no longer exists.');
    return user;
  }

  private async notify(user: UserRecord, previous?: UserRecord) {
    for (const listener of this.listeners) await listener.profileSaved(user, previous);
  }
}
