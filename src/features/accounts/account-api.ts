import { z } from 'zod';
import * as accounts from './account-schemas.js';
import * as profile from './profile.js';

/** The account routes' bodies, named and described for the OpenAPI document (components.schemas). */
export const describedRegistration = accounts.registrationSchema.meta({ id: 'Registration', description: 'A new account. The e-mail is also the login name.' });

export const describedLogin = accounts.loginSchema.meta({ id: 'Login' });

export const describedProfileUpdate = accounts.profileUpdateSchema.meta({ id: 'ProfileUpdate', description: 'Any registration field but email and password.' });

export const describedPasswordChange = accounts.passwordChangeSchema.meta({
  id: 'PasswordChange',
  description: 'The current password, and the new one (the same rules as at registration).',
});

export const describedLeave = accounts.leaveSchema.meta({
  id: 'Leave',
  description: "The account's password: the account and everything of it are erased.",
});

export const logoutQuery = accounts.logoutQuerySchema.meta({
  id: 'LogoutQuery',
  description: '`all=true`: revoke every token of the account (log out everywhere), not only the presented one.',
});

export const tokenSchema = z
  .object({ token: z.string(), token_type: z.literal('Bearer'), expires_at: z.string(), user_id: z.number().int() })
  .meta({ id: 'Token' });

/** What a login answers: the token, and which kind of account logged in (registration says it too). */
export const loggedInSchema = tokenSchema
  .extend({
    account_type: z
      .enum(['agent', 'member'])
      .describe(
        'The kind of account logged in: agent (sees agents only) or member (sees members only); e-mails are a namespace per pool, so send pool to choose.',
      ),
  })
  .meta({ id: 'LoggedIn' });

export const publicProfileSchema = profile.publicProfileSchema.meta({ id: 'PublicProfile' });

export const ownProfileSchema = profile.ownProfileSchema.meta({ id: 'OwnProfile' });
