import { validate } from '../../platform/core/validation.js';
import type { AccountLimits } from '../../platform/limits/account-limits.js';
import { json, type Route, type AuthedRequest } from '../../platform/http/types.js';
import { reportEndpoints as endpoints } from './report-endpoints.js';
import { newReportSchema } from './report-schemas.js';
import type { ReportService } from './report-service.js';

type Deps = { reports: ReportService; limits: AccountLimits };

export function reportRoutes({ reports, limits }: Deps): Route[] {
  return [
    {
      ...endpoints.file,
      handler: async (req: AuthedRequest) => {
        const input = validate(newReportSchema, req.body);
        await limits.take('report', req.auth);
        return json(201, await reports.file(req.auth, input));
      },
    },
  ];
}
