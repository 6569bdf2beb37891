import type { AuthedEndpoint } from '../../platform/http/types.js';
import { filedReportSchema, newReportDoc } from './report-api.js';
import { MAX_REPORT_TEXT, REPORT_REASONS } from './report-schemas.js';

const file: AuthedEndpoint = {
  method: 'POST',
  path: '/api/v1/reports',
  auth: true,
  body: true,
  doc: {
    summary: `Report an account of your pool to the operators: user_id, a reason (${REPORT_REASONS.join(', ')}), optionally the match_id and message_id it is about and text (at most ${MAX_REPORT_TEXT} characters). The reported account is told nothing, and never who reported it. A daily cap per account (20 by default) answers 429 with Retry-After; an account with as many reports waiting for the operators as it may (10 by default) gets 409 too_many_open_reports until they close one.`,
    tags: ['moderation'],
    body: newReportDoc,
    response: { status: 201, schema: filedReportSchema, description: 'The report was filed.' },
    errors: [400, 404, 409, 415, 429],
    codes: ['too_many_open_reports'],
    errorDescriptions: {
      409: 'You have as many open reports as an account may (REPORTS_MAX_OPEN_PER_REPORTER), or the pool as many as it keeps (REPORTS_MAX_OPEN): nothing was filed (`too_many_open_reports`, with `scope`: reporter or pool); report again once operators have closed some.',
    },
  },
};

/** The report route as declared (report-routes.ts gives it its handler). */
export const reportEndpoints = { file };
