import { z } from 'zod';
import * as accounts from '../domain/account-schemas.js';
import { MESSAGE_MAX, newMessageSchema as newMessage } from '../domain/message-schemas.js';
import { likeQuerySchema as likeQuery } from '../domain/swipe-kinds.js';

/** The domain's request rules, named and described for the OpenAPI document (components.schemas). */
export const registrationSchema = accounts.registrationSchema.meta({ id: 'Registration', description: 'A new account. The e-mail is also the login name.' });

export const loginSchema = accounts.loginSchema.meta({ id: 'Login' });

export const profileUpdateSchema = accounts.profileUpdateSchema.meta({ id: 'ProfileUpdate', description: 'Any registration field but email and password.' });

/** Body of `POST /matches/{id}/messages`. */
export const newMessageSchema = z
  .strictObject({
    body: newMessage.shape.body.meta({
      description: `1–${MESSAGE_MAX} characters after trimming, under the text policy (line breaks kept; bidirectional controls, zero-width, control and format characters, stacked combining marks and blank text refused).`,
    }),
  })
  .meta({ id: 'NewMessage' });

/** Query of `POST /likes/{user_id}`. */
export const likeQuerySchema = z.strictObject({
  kind: likeQuery.shape.kind.meta({
    description: 'like or super_like (both count towards a match; super_like also notifies the target at once), or pass.',
  }),
});
