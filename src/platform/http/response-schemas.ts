import { z } from 'zod';

/** The shapes every route shares, for the OpenAPI document: the error envelope and the list envelope. */
export const errorSchema = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      details: z
        .array(z.object({ field: z.string(), message: z.string() }))
        .describe('The fields at fault, each with its problem; [] when no field is at fault.'),
      retry_after_seconds: z.number().int().optional(),
      ended_at: z.string().optional().describe('With `match_ended` (410): when the match ended.'),
    }),
  })
  .meta({ id: 'Error' });

/** The list envelope every paginated endpoint answers with. */
export const page = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), next_cursor: z.string().nullable() });
