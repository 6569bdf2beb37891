import { errors } from '../../platform/core/errors.js';
import type { Page, PageRequest } from '../../platform/core/page.js';
import type { ActivityCursor } from '../../platform/core/page-positions.js';
import type { Principal } from '../../platform/core/principal.js';
import type { SuspensionRepository, UserRepository } from '../accounts/index.js';
import type { MatchService } from '../matches/index.js';
import type { BlockRepository, StoredBlock } from './block-repository.js';

/** A block as the API shows it. */
export type BlockView = { user_id: number; blocked_at: string };

const view = ({ userId, since }: StoredBlock): BlockView => ({ user_id: userId, blocked_at: new Date(since).toISOString() });

/**
 * Blocks within the caller's pool. A block hides the two from each other's feed and browse, makes their
 * swipes on each other change nothing (lua/record_swipe-5.lua reads the pair's flag) and ends their match
 * as an unmatch by the blocker does; the blocked account is told nothing but that match's end.
 */
export class BlockService {
  constructor(
    private readonly blocks: BlockRepository,
    private readonly users: UserRepository,
    private readonly matches: MatchService,
    private readonly maxPerAccount: number,
    private readonly suspensions?: Pick<SuspensionRepository, 'suspendedAmong'>,
  ) {}

  /**
   * Blocks `userId` (again: the same block, completed if a crash interrupted it). The pair's flag is set
   * before its match is looked up, so no match can be made after the one ended here.
   */
  async block(caller: Principal, userId: number, now = new Date()): Promise<{ created: boolean; block: BlockView }> {
    await this.requireOther(caller, userId);
    const added = await this.blocks.add(caller.pool, caller.userId, userId, now);
    if (added.status === 'full') {
      throw errors.invalidField('user_id', `cannot be blocked: you already block ${this.maxPerAccount} accounts, the most an account may; unblock one first`);
    }
    const matchState = await this.blocks.flagPair(caller.pool, caller.userId, userId, true);
    if (matchState !== '' && !matchState.startsWith('ended:')) await this.matches.endIfCurrent(caller, Number(matchState));
    await this.blocks.markBlockedBy(caller.pool, userId, caller.userId, true);
    return { created: added.status === 'added', block: view({ userId, since: added.since }) };
  }

  /**
   * Lifts the caller's block; 404 when there is none. Their match, if one was ended, stays ended. The
   * block leaves the caller's list last, so an unblock a crash interrupted is still listed and sending it
   * again completes it.
   */
  async unblock(caller: Principal, userId: number): Promise<void> {
    if (userId === caller.userId || !(await this.blocks.has(caller.pool, caller.userId, userId))) throw notBlocked();
    await this.blocks.flagPair(caller.pool, caller.userId, userId, false);
    await this.blocks.markBlockedBy(caller.pool, userId, caller.userId, false);
    await this.blocks.remove(caller.pool, caller.userId, userId);
  }

  async list(caller: Principal, page: PageRequest<ActivityCursor>): Promise<Page<BlockView, ActivityCursor>> {
    const { items, next } = await this.blocks.list(caller.pool, caller.userId, page);
    return { items: items.map(view), next };
  }

  /**
   * Another account of the caller's pool: 404 for an id of nobody there (another pool's included) and for
   * a suspended account (answered exactly as an absent one), 400 for oneself.
   */
  private async requireOther(caller: Principal, userId: number): Promise<void> {
    if (userId === caller.userId) throw errors.invalidField('user_id', 'is your own account: you cannot block yourself');
    const [exists, suspended] = await Promise.all([this.users.exists(caller.pool, userId), this.suspensions?.suspendedAmong(caller.pool, [userId])]);
    if (!exists || suspended?.has(userId)) throw errors.notFound('user', 'It is not an account you can reach.');
  }
}

const notBlocked = () => errors.notFound('block of yours on this account', 'GET /api/v1/blocks lists the accounts you block.');
