import { z } from 'zod';
import { idSchema } from '../../platform/core/id-schema.js';

/** The reasons a report may give. */
export const REPORT_REASONS = ['spam', 'harassment', 'impersonation', 'inappropriate', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** The most characters of a report's free text. */
export const MAX_REPORT_TEXT = 1_000;

/** A report: the account reported (in the caller's pool), why, and optionally the match and message it is about. */
export const newReportSchema = z.strictObject({
  user_id: idSchema,
  reason: z.enum(REPORT_REASONS),
  match_id: idSchema.optional(),
  message_id: idSchema.optional(),
  text: z.string().max(MAX_REPORT_TEXT).optional(),
});
export type NewReport = z.output<typeof newReportSchema>;
