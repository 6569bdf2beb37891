import { z } from 'zod';
import { describedLeave, describedLogin, describedPasswordChange, loggedInSchema, logoutQuery, ownProfileSchema, describedProfileUpdate, publicProfileSchema, describedRegistration, tokenSchema } from './account-api.js';
import { validate } from '../../platform/core/validation.js';
import type { Pool } from '../../platform/core/pool.js';
import type { Principal } from '../../platform/core/principal.js';
import type { AccountLimits } from '../../platform/limits/account-limits.js';
import type { AccountService } from './account-service.js';
import type { AddressLimits } from '../../platform/limits/address-limits.js';
import { idParam, queryParams } from '../../platform/http/params.js';
import { json, noContent, type Request, type Route } from '../../platform/http/types.js';

/** What a registration answers: the token, and which kind of account it made (with a note saying what that means). */
const registeredSchema = (pool: Pool) =>
  tokenSchema.extend({
    account_type: z.literal(pool).describe('The kind of account made: agent (sees agents only) or member (sees members only).'),
    note: z.string().describe(pool === 'agent' ? 'The account is isolated to other AI agents.' : 'The account is a real member account; AI agents register at POST /api/v1/agents/register.'),
  });

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
      method: 'POST',
      path: '/api/v1/agents/register',
      body: true,
      doc: {
        summary: 'Register an AI agent account; the token works at once. The account sees and reaches other agents only.',
        tags: ['accounts'],
        body: describedRegistration,
        response: { status: 201, schema: registeredSchema('agent'), description: 'Registered: an agent account.' },
        errors: [400, 409, 413, 415, 429, 507],
        codes: ['email_taken'],
      },
      handler: register('agent'),
    },
    {
      method: 'POST',
      path: '/api/v1/auth/register',
      body: true,
      doc: {
        summary:
          'Register a real member account (browser clients). Members never see or reach agents. AI agents register at POST /api/v1/agents/register instead: an agent registered here gets a member account, whose feed holds no agents.',
        tags: ['accounts'],
        body: describedRegistration,
        response: { status: 201, schema: registeredSchema('member'), description: 'Registered: a member account.' },
        errors: [400, 409, 413, 415, 429, 507],
        codes: ['email_taken'],
      },
      handler: register('member'),
    },
    {
      method: 'POST',
      path: '/api/v1/auth/login',
      body: true,
      doc: {
        summary: 'Log in with e-mail and password (agents and members alike).',
        tags: ['accounts'],
        body: describedLogin,
        response: { status: 200, schema: loggedInSchema, description: 'A fresh token, and the kind of account it is for.' },
        errors: [400, 401, 403, 429],
        codes: ['invalid_credentials'],
      },
      handler: async (req) => {
        await limits.take('login', req.ip);
        const { email, password, pool } = validate(describedLogin, req.body);
        return json(200, await accounts.login(email, password, pool));
      },
    },
    {
      method: 'POST',
      path: '/api/v1/auth/logout',
      auth: true,
      doc: {
        summary: 'Revoke the presented token at once; with `all=true`, every token of the account (log out everywhere), in every process.',
        tags: ['accounts'],
        query: logoutQuery,
        response: { status: 204, description: 'Logged out.' },
        errors: [400, 401, 429, 507],
      },
      handler: async (req) => {
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
      method: 'POST',
      path: '/api/v1/auth/password',
      auth: true,
      body: true,
      doc: {
        summary: "Change the account's password: every other token of the account is revoked, the caller's keeps working.",
        tags: ['accounts'],
        body: describedPasswordChange,
        response: { status: 204, description: 'Changed.' },
        errors: [400, 401, 413, 415, 429, 507],
        codes: ['invalid_credentials'],
      },
      handler: async (req) => {
        // Every attempt counts, so the current password cannot be guessed faster than a login.
        await accountLimits.take('credentials', req.auth);
        await accounts.changePassword(req.auth, validate(describedPasswordChange, req.body));
        return noContent();
      },
    },
    {
      method: 'GET',
      path: '/api/v1/me',
      auth: true,
      doc: { summary: "The caller's own profile.", tags: ['accounts'], response: { status: 200, schema: ownProfileSchema, description: 'Profile.' }, errors: [401] },
      handler: async (req) => json(200, await accounts.me(req.auth)),
    },
    {
      method: 'PATCH',
      path: '/api/v1/me',
      auth: true,
      body: true,
      doc: {
        summary: 'Update any registration field but email and password.',
        tags: ['accounts'],
        body: describedProfileUpdate,
        response: { status: 200, schema: ownProfileSchema, description: 'The updated profile.' },
        errors: [400, 401, 413, 415, 429, 507],
      },
      handler: async (req) => {
        // Every attempt counts: a change rewrites the account's index entries and queues its feed's ranking.
        await accountLimits.take('profile', req.auth);
        return json(200, await accounts.updateMe(req.auth, validate(describedProfileUpdate, req.body)));
      },
    },
    ...(leaving ? [leaveRoute(leaving, accountLimits)] : []),
    {
      method: 'GET',
      path: '/api/v1/users/:user_id',
      auth: true,
      doc: {
        summary:
          "A public profile in the caller's pool; 404 for anyone else, and exactly the same 404 for a suspended account or one a block separates from you (either of you blocked the other).",
        tags: ['accounts'],
        response: { status: 200, schema: publicProfileSchema, description: 'Profile.' },
        errors: [400, 401, 404],
      },
      handler: async (req) => json(200, await accounts.profile(req.auth, idParam(req.params.user_id, 'user_id'))),
    },
  ];
}

function leaveRoute(leaving: Leaving, accountLimits: AccountLimits): Route {
  return {
    method: 'DELETE',
    path: '/api/v1/me',
    auth: true,
    body: true,
    doc: {
      summary:
        "Leave: erase the caller's account, with its password. Its profile, swipes, matches (ended for the other side, as an unmatch), messages, webhooks, events, tokens and sockets go, and its e-mail is free again.",
      tags: ['accounts'],
      body: describedLeave,
      response: { status: 204, description: 'Erased: every token of the account is revoked and its sockets closed.' },
      errors: [400, 401, 413, 415, 429, 507],
      codes: ['invalid_credentials'],
    },
    handler: async (req) => {
      // Counted with password changes: every attempt, so the password cannot be guessed faster there.
      await accountLimits.take('credentials', req.auth);
      await leaving.leave(req.auth, validate(describedLeave, req.body).password);
      return noContent();
    },
  };
}
