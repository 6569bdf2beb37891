import { z } from 'zod';
import { ERROR_CODES, REPORT_CAP_SCOPES, UNDO_REFUSALS, type ErrorExtras } from '../core/errors.js';

/** Every field an error may carry beside code, message and details (core/errors.ts `ErrorExtras`, each one of them). */
const errorExtras = {
  retry_after_seconds: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('With `rate_limited` (429) and `storage_full` (507): seconds to wait before retrying, as the `Retry-After` header says.'),
  limit: z.number().int().min(0).optional().describe('With `rate_limited` (429) on a cap of open sockets or connections: the cap.'),
  ended_at: z.string().optional().describe('With `match_ended` (410): when the match ended.'),
  reason: z
    .enum(UNDO_REFUSALS)
    .optional()
    .describe('With `cannot_undo` (409): why the swipe cannot be undone (a like or super_like, not your last pass, or past the undo window).'),
  scope: z
    .enum(REPORT_CAP_SCOPES)
    .optional()
    .describe("With `too_many_open_reports` (409): whose open reports are at their cap, the reporter's or the pool's."),
} satisfies { [K in keyof Required<ErrorExtras>]: z.ZodType<ErrorExtras[K]> };

/** The shapes every route shares, for the OpenAPI document: the error envelope and the list envelope. */
export const errorSchema = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES).describe('What went wrong, as data: one of the catalogue of docs/api.md ("Errors").'),
      message: z.string().describe("One sentence, in the service's own words, saying what to do."),
      details: z
        .array(z.object({ field: z.string(), message: z.string() }))
        .describe('The fields at fault, each with its problem; [] when no field is at fault.'),
      ...errorExtras,
    }),
  })
  .meta({ id: 'Error' });

/** The list envelope every paginated endpoint answers with. */
export const page = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), next_cursor: z.string().nullable() });

/** What `GET /api/v1/openapi.json` (and the operators' own) answers. */
export const openApiDocumentSchema = z
  .looseObject({
    openapi: z.literal('3.1.0'),
    info: z.object({ title: z.string(), version: z.string(), description: z.string() }),
    paths: z.looseObject({}),
    components: z.looseObject({}),
  })
  .meta({ id: 'OpenApiDocument', description: 'An OpenAPI 3.1 document.' });
