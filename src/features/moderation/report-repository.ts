import type { Page, PageRequest } from '../../platform/core/page.js';
import type { Pool } from '../../platform/core/pool.js';
import { keys } from '../../platform/redis/keys.js';
import type { RedisClient } from '../../platform/redis/redis.js';
import { replyIsOne, replyList, replyText } from '../../platform/redis/raw-reply.js';
import { script } from '../../platform/redis/script.js';
import type { Scripts } from '../../platform/redis/scripts.js';
import type { ReportReason } from './report-schemas.js';

/** What was reported, as it was when the report was filed. */
export type ReportedContent = { display_name: string; bio: string; message: { id: number; body: string; created_at: string } | null };

/** An open report as operators read it. */
export type StoredReport = {
  id: number;
  pool: Pool;
  reporter_id: number;
  reported_id: number;
  reason: ReportReason;
  match_id: number | null;
  message_id: number | null;
  text: string | null;
  created_at: string;
  content: ReportedContent;
};

/** lua/file_report-4.lua: the new report's id, or why it was refused (nothing written). */
const fileReport = script('file_report', (raw) => {
  const [status, id] = replyList(raw);
  return status === 'filed' ? ({ status: 'filed', id: Number(id) } as const) : ({ status: replyText(status) as 'reporter_full' | 'pool_full' } as const);
});
const closeReport = script('close_report', replyIsOne);

/** How many open reports are kept: per pool, and per reporter within it. */
export type OpenReportCaps = { perPool: number; perReporter: number };

/**
 * The pool's open reports: a hash of their records, their ids in order, and how many each reporter has
 * open; bounded per reporter and per pool, refusing past either (lua/file_report-4.lua).
 */
export class ReportRepository {
  constructor(
    private readonly redis: RedisClient,
    private readonly scripts: Scripts,
    readonly caps: OpenReportCaps,
  ) {}

  /** Files the report: its id, or why it was refused (nothing filed). */
  file(report: Omit<StoredReport, 'id'>): Promise<{ status: 'filed'; id: number } | { status: 'reporter_full' | 'pool_full' }> {
    const { pool } = report;
    return this.scripts.run(
      fileReport,
      [keys.reports(pool), keys.openReports(pool), keys.reportSeq(pool), keys.openReportsByReporter(pool)],
      [JSON.stringify(report), this.caps.perPool, this.caps.perReporter, report.reporter_id],
    );
  }

  /** Open reports, oldest first, after the cursor (a report id). */
  async list(pool: Pool, { limit, after }: PageRequest<number>): Promise<Page<StoredReport, number>> {
    const ids = await this.redis.zrangebyscore(keys.openReports(pool), after ? `(${after}` : '-inf', '+inf', 'LIMIT', 0, limit + 1);
    const shown = ids.slice(0, limit);
    const records = shown.length > 0 ? await this.redis.hmget(keys.reports(pool), ...shown) : [];
    const items = records.filter((json): json is string => json !== null).map((json) => JSON.parse(json) as StoredReport);
    return { items, next: ids.length > limit ? Number(shown.at(-1)) : null };
  }

  /** An open report; undefined when there is none open by that id. */
  async find(pool: Pool, id: number): Promise<StoredReport | undefined> {
    const json = await this.redis.hget(keys.reports(pool), String(id));
    return json ? (JSON.parse(json) as StoredReport) : undefined;
  }

  /** Closes an open report; false when there is none open by that id. */
  close(pool: Pool, id: number): Promise<boolean> {
    return this.scripts.run(closeReport, [keys.reports(pool), keys.openReports(pool), keys.openReportsByReporter(pool)], [id]);
  }
}
