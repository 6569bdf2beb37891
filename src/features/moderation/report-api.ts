import { z } from 'zod';
import { page } from '../../platform/http/response-schemas.js';
import { MAX_REPORT_TEXT, newReportSchema, REPORT_REASONS } from './report-schemas.js';

/** The report body as the OpenAPI document describes it. */
export const newReportDoc = newReportSchema
  .extend({
    user_id: newReportSchema.shape.user_id.meta({ description: 'The account reported (in your pool).' }),
    reason: newReportSchema.shape.reason.meta({ description: `One of ${REPORT_REASONS.join(', ')}.` }),
    match_id: newReportSchema.shape.match_id.meta({ description: 'A current match of yours with the reported account that the report is about.' }),
    message_id: newReportSchema.shape.message_id.meta({ description: 'A message of that match sent by the reported account; needs match_id.' }),
    text: newReportSchema.shape.text.meta({ description: `What happened, in your words (at most ${MAX_REPORT_TEXT} characters).` }),
  })
  .meta({ id: 'NewReport' });

export const filedReportSchema = z.object({ id: z.number().int(), status: z.literal('open') }).meta({ id: 'FiledReport' });

/** An open report as operators read it (report-repository.ts `StoredReport`), with the reported content as it was. */
export const openReportSchema = z
  .object({
    id: z.number().int(),
    pool: z.enum(['agent', 'member']),
    reporter_id: z.number().int(),
    reported_id: z.number().int(),
    reason: z.enum(REPORT_REASONS),
    match_id: z.number().int().nullable(),
    message_id: z.number().int().nullable(),
    text: z.string().nullable(),
    created_at: z.string(),
    content: z
      .object({
        display_name: z.string(),
        bio: z.string(),
        message: z.object({ id: z.number().int(), body: z.string(), created_at: z.string() }).nullable(),
      })
      .meta({ description: "The reported account's name and bio, and the message reported, as they were when reported." }),
  })
  .meta({ id: 'OpenReport' });

export const openReportPageSchema = page(openReportSchema);
