import { errors } from '../../platform/core/errors.js';
import type { Principal } from '../../platform/core/principal.js';
import type { SuspensionRepository, UserRepository } from '../accounts/index.js';
import type { MatchRepository, MessageRepository } from '../matches/index.js';
import type { Page, PageRequest } from '../../platform/core/page.js';
import type { Pool } from '../../platform/core/pool.js';
import type { ReportedContent, ReportRepository, StoredReport } from './report-repository.js';
import type { NewReport } from './report-schemas.js';

/**
 * Files reports: the reported account must be in the caller's pool and not suspended (404 otherwise, as for
 * an id that names no account: a suspended account is absent to other accounts everywhere), a match or
 * message named must be one between the two: a current match, or one ended lately, whose messages its end
 * kept for reports for `evidenceHours` (an abuser cannot take its messages out of a report by unmatching).
 * The reported account is told nothing.
 */
export class ReportService {
  constructor(
    private readonly reports: ReportRepository,
    private readonly users: UserRepository,
    private readonly matches: MatchRepository,
    private readonly messages: MessageRepository,
    private readonly suspensions: SuspensionRepository,
    private readonly evidenceHours: number,
  ) {}

  async file(caller: Principal, input: NewReport, now = new Date()): Promise<{ id: number; status: 'open' }> {
    if (input.user_id === caller.userId) throw errors.invalidField('user_id', 'is your own account: you cannot report yourself');
    if (input.message_id !== undefined && input.match_id === undefined)
      throw errors.invalidField('match_id', 'is required with message_id: name the match the message was sent in');
    const [reported, suspended] = await Promise.all([
      this.users.find(caller.pool, input.user_id),
      this.suspensions.suspendedAmong(caller.pool, [input.user_id]),
    ]);
    if (!reported || suspended.has(input.user_id)) throw errors.notFound('user', 'It is not an account you can reach.');
    const content: ReportedContent = { display_name: reported.displayName, bio: reported.bio, message: null };
    if (input.match_id !== undefined) {
      const match = await this.matches.findHead(caller.pool, input.match_id, { includeEnded: true });
      if (!match || !match.userIds.includes(caller.userId) || !match.userIds.includes(input.user_id)) {
        throw errors.notFound('match', 'match_id must name a match between you and the reported account, current or ended.');
      }
      if (input.message_id !== undefined) {
        const message = await this.messages.findForReport(caller.pool, input.match_id, input.message_id);
        if (!message || message.sender_id !== input.user_id) {
          throw errors.notFound(
            'message',
            `message_id must name a message of that match sent by the reported account (an ended match's messages can be reported for ${this.evidenceHours} hours after it ended).`,
          );
        }
        content.message = { id: message.id, body: message.body, created_at: message.created_at };
      }
    }
    const filed = await this.reports.file({
      pool: caller.pool,
      reporter_id: caller.userId,
      reported_id: input.user_id,
      reason: input.reason,
      match_id: input.match_id ?? null,
      message_id: input.message_id ?? null,
      text: input.text ?? null,
      created_at: now.toISOString(),
      content,
    });
    if (filed.status !== 'filed') {
      const { perReporter, perPool } = this.reports.caps;
      throw filed.status === 'reporter_full' ? errors.tooManyOpenReports('reporter', perReporter) : errors.tooManyOpenReports('pool', perPool);
    }
    return { id: filed.id, status: 'open' };
  }

  /** Operators: the pool's open reports, oldest first. */
  listOpen(pool: Pool, page: PageRequest<number>): Promise<Page<StoredReport, number>> {
    return this.reports.list(pool, page);
  }

  /** Operators: an open report; 404 when none is open by that id. */
  async open(pool: Pool, id: number): Promise<StoredReport> {
    const report = await this.reports.find(pool, id);
    if (!report) throw errors.notFound('open report');
    return report;
  }

  /** Operators: closes an open report (resolved or dismissed); 404 when none is open by that id. */
  async close(pool: Pool, id: number): Promise<void> {
    if (!(await this.reports.close(pool, id))) throw errors.notFound('open report');
  }
}
