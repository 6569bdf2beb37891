import { z } from 'zod';
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
