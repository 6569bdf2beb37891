export { adminApi } from './admin-routes.js';
export type { AdminApi } from './admin-routes.js';
export type { ReportRepository, StoredReport } from './report-repository.js';
export { reportRoutes } from './report-routes.js';
export { REPORT_REASONS } from './report-schemas.js';
export { ReportService } from './report-service.js';
export { SuspensionService } from './suspension-service.js';
export type { AccountStanding } from './suspension-service.js';
