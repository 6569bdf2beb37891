import { validate } from '../../platform/core/validation.js';
import type { Pool } from '../../platform/core/pool.js';
import type { Principal } from '../../platform/core/principal.js';
import type { AccountLimits } from '../../platform/limits/account-limits.js';
import type { AddressLimits } from '../../platform/limits/address-limits.js';
import { idParam, queryParams } from '../../platform/http/params.js';
import { json, noContent, type Request, type Route, type AuthedRequest } from '../../platform/http/types.js';
import { describedLeave, describedLogin, describedPasswordChange, describedProfileUpdate, describedRegistration, logoutQuery } from './account-api.js';
import { accountEndpoints as endpoints } from './account-endpoints.js';
import type { AccountService } from './account-service.js';

/** Erases an account whose password was given (the leaving feature; the composition hands it over). */
export type Leaving = { leave(caller: Principal, password: string): Promise<void> };

type Deps = { accounts: AccountService; limits: AddressLimits; accountLimits: AccountLimits; leaving?: Leaving };

export function accountRoutes({ accounts, limits, accountLimits, leaving }: Deps): Route[] {
  // Every attempt counts, valid or not, so the limit is taken before anything else is looked at.
  const register = (pool: Pool) => async (req: Request) => {
    await limits.take('register', req.ip);
    const input = validate(describedRegistration, req.body);
    return json(201, await accounts.register(pool, input));
  };

  return [
    {
      ...endpoints.registerAgent,
      handler: register('agent'),
    },
    {
      ...endpoints.registerMember,
      handler: register('member'),
    },
    {
      ...endpoints.login,
      handler: async (req) => {
        await limits.take('login', req.ip);
        const { email, password, pool } = validate(describedLogin, req.body);
        return json(200, await accounts.login(email, password, pool));
      },
    },
    {
      ...endpoints.logout,
      handler: async (req: AuthedRequest) => {
        const { all } = validate(logoutQuery, queryParams(req.query), 'query');
        if (!all) {
          await accounts.logout(req.auth);
          return noContent();
        }
        await accountLimits.take('credentials', req.auth);
        await accounts.logoutEverywhere(req.auth);
        return noContent();
      },
    },
    {
      ...endpoints.changePassword,
      handler: async (req: AuthedRequest) => {
        // Every attempt counts, so the current password cannot be guessed faster than a login.
        await accountLimits.take('credentials', req.auth);
        await accounts.changePassword(req.auth, validate(describedPasswordChange, req.body));
        return noContent();
      },
    },
    {
      ...endpoints.me,
      handler: async (req: AuthedRequest) => json(200, await accounts.me(req.auth)),
    },
    {
      ...endpoints.updateMe,
      handler: async (req: AuthedRequest) => {
        // Every attempt counts: a change rewrites the account's index entries and queues its feed's ranking.
        await accountLimits.take('profile', req.auth);
        return json(200, await accounts.updateMe(req.auth, validate(describedProfileUpdate, req.body)));
      },
    },
    ...(leaving ? [leaveRoute(leaving, accountLimits)] : []),
    {
      ...endpoints.user,
      handler: async (req: AuthedRequest) => json(200, await accounts.profile(req.auth, idParam(req.params.user_id, 'user_id'))),
    },
  ];
}

function leaveRoute(leaving: Leaving, accountLimits: AccountLimits): Route {
  return {
    ...endpoints.leave,
    handler: async (req: AuthedRequest) => {
      // Counted with password changes: every attempt, so the password cannot be guessed faster there.
      await accountLimits.take('credentials', req.auth);
      await leaving.leave(req.auth, validate(describedLeave, req.body).password);
      return noContent();
    },
  };
}
