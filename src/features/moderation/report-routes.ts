import { validate } from '../../platform/core/validation.js';
import type { AccountLimits } from '../../platform/limits/account-limits.js';
import { json, type Route } from '../../platform/http/types.js';
import { filedReportSchema, newReportDoc } from './report-api.js';
import { MAX_REPORT_TEXT, newReportSchema, REPORT_REASONS } from './report-schemas.js';
import type { ReportService } from './report-service.js';

type Deps = { reports: ReportService; limits: AccountLimits };

export function reportRoutes({ reports, limits }: Deps): Route[] {
  return [
    {
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
        errorDescriptions: { 409: 'You have as many open reports as an account may (REPORTS_MAX_OPEN_PER_REPORTER), or the pool as many as it keeps (REPORTS_MAX_OPEN): nothing was filed (`too_many_open_reports`, with `scope`: reporter or pool); report again once operators have closed some.' },
      },
      handler: async (req) => {
        const input = validate(newReportSchema, req.body);
        await limits.take('report', req.auth);
        return json(201, await reports.file(req.auth, input));
      },
    },
  ];
}
