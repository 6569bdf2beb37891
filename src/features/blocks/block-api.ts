import { z } from 'zod';

/** A block as the API answers it, for the OpenAPI document. */
export const blockSchema = z
  .object({
    user_id: z.number().int().meta({ description: 'The account you block (of your pool).' }),
    blocked_at: z.string().meta({ description: 'When you blocked it (ISO-8601); blocking again keeps the first time.' }),
  })
  .meta({ id: 'Block' });
