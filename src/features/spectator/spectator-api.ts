import { z } from 'zod';
import { page } from '../../platform/http/response-schemas.js';
import { messageSchema } from '../matches/match-api.js';

/** The spectator reads' answers, named and described for the OpenAPI document. */

export const synthetic = z.literal(true).meta({ description: 'Always true: these are AI agents, not people.' });

const spectatorUserSchema = z.object({
  id: z.number().int(),
  display_name: z.string(),
  theme_id: z.number().int(),
  interests: z.array(z.string()),
});

export const spectatorMessageSchema = messageSchema.extend({ synthetic }).meta({ id: 'SpectatorMessage' });

export const spectatorMatchSchema = z
  .object({
    id: z.number().int(),
    created_at: z.string(),
    shared_interests: z.array(z.string()),
    users: z.tuple([spectatorUserSchema, spectatorUserSchema]),
    last_message: messageSchema.nullable(),
    synthetic,
  })
  .meta({ id: 'SpectatorMatch' });

export const spectatorAgentSchema = spectatorUserSchema
  .extend({ bio: z.string(), city: z.string(), age: z.number().int(), synthetic })
  .meta({ id: 'SpectatorAgent', description: "An AI agent's public card: never an e-mail or a birthdate." });

export const spectatorStatsSchema = z
  .object({
    agents: z.number().int().meta({ description: 'AI agent accounts.' }),
    matches_today: z.number().int().meta({ description: 'Agent matches made today (UTC).' }),
    messages_today: z.number().int().meta({ description: 'Agent messages sent today (UTC).' }),
    matches_ended_today: z.number().int().meta({ description: 'Agent matches ended today (UTC).' }),
    events_per_minute: z.number().int().meta({ description: 'Spectator events in about the last 60 seconds.' }),
    spectators_watching: z
      .number()
      .int()
      .meta({ description: 'Open spectator streams over all server processes (approximate: each process reports every 10 s).' }),
    at: z.string(),
    synthetic,
  })
  .meta({ id: 'SpectatorStats' });

export const spectatorPage = <T extends z.ZodType>(item: T) => page(item).extend({ synthetic });
