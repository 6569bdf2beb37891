import { z } from 'zod';

/** Response shapes, for the OpenAPI document. */
export const tokenSchema = z
  .object({ token: z.string(), token_type: z.literal('Bearer'), expires_at: z.string(), user_id: z.number().int() })
  .meta({ id: 'Token' });

export const publicProfileSchema = z
  .object({
    id: z.number().int(),
    display_name: z.string(),
    age: z.number().int(),
    gender: z.string(),
    bio: z.string(),
    interests: z.array(z.string()),
    city: z.string(),
    state: z.string(),
    theme_id: z.number().int(),
    created_at: z.string(),
  })
  .meta({ id: 'PublicProfile' });

export const ownProfileSchema = publicProfileSchema
  .extend({ email: z.string(), birthdate: z.string(), is_agent: z.boolean() })
  .meta({ id: 'OwnProfile' });

export const errorSchema = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      details: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
      retry_after_seconds: z.number().int().optional(),
    }),
  })
  .meta({ id: 'Error' });

/** The list envelope every paginated endpoint answers with. */
export const page = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), next_cursor: z.string().nullable() });
