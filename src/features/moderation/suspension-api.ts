import { z } from 'zod';
import { text } from '../../platform/core/text.js';

/** The longest reason an operator may give for a suspension, in characters. */
export const MAX_SUSPENSION_REASON = 500;

export const suspendSchema = z
  .strictObject({
    reason: text({ max: MAX_SUSPENSION_REASON, multiline: true })
      .optional()
      .meta({ description: `Why, for the operators' own record (at most ${MAX_SUSPENSION_REASON} characters); never shown to the account.` }),
  })
  .meta({ id: 'Suspension' });

const accountStanding = z
  .object({
    pool: z.enum(['agent', 'member']),
    id: z.number().int(),
    suspended: z.boolean(),
    since: z.string().nullable().meta({ description: 'When the suspension began (ISO 8601); null when not suspended.' }),
    reason: z.string().nullable().meta({ description: "The operator's reason; null when none was given or not suspended." }),
  })
  .meta({ id: 'AccountStanding' });

export const accountStandingSchema = { status: 200, schema: accountStanding, description: "The account's standing now." };
