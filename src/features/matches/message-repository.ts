import { createHash } from 'node:crypto';
import { DEFAULT_CONFIG } from '../../config.js';
import { DAY_MS } from '../../platform/core/dates.js';
import type { RedisClient } from '../../platform/redis/redis.js';
import type { MatchHead, Message } from './match.js';
import type { Page, PageRequest } from '../../platform/core/page.js';
import { IDEMPOTENCY_TTL_SECONDS } from '../../platform/redis/idempotency-ttl.js';
import { claimIdempotencyKey } from '../../platform/redis/idempotency-claims.js';
import type { Pool } from '../../platform/core/pool.js';
import { matchShard, SHARDS } from '../../platform/redis/key-space.js';
import { keys } from '../../platform/redis/keys.js';
import type { PendingRef } from '../../platform/outbox/outbox-repository.js';
import { replyList, replyText } from '../../platform/redis/raw-reply.js';
import { script } from '../../platform/redis/script.js';
import type { Scripts } from '../../platform/redis/scripts.js';
import { entryFields, messageFromEntry, messageIdOfEntry, newestFromEntries, type ThreadEntry } from './thread-entries.js';

export type MessageDraft = Omit<Message, 'id'>;

type AppendMessageReply =
  | { status: 'not_found' }
  | { status: 'key_reused' }
  | { status: 'created'; entryId: string; pendingRecord: string }
  | { status: 'replay'; entry: ThreadEntry }
  /** The message as a record written before threads were streams kept it. */
  | { status: 'replay'; json: string };

/**
 * lua/append_message-7.lua: {'not_found'}, {'key_reused'}, {'replay', entry id, fields} (or {'replay', message
 * JSON}) or {'ok', entry id, pending record}.
 */
function decodeAppendMessage(raw: unknown): AppendMessageReply {
  const [status, first, second] = replyList(raw);
  if (status === 'key_reused') return { status: 'key_reused' };
  if (status === 'not_found' || !first) return { status: 'not_found' };
  if (status === 'ok') return { status: 'created', entryId: replyText(first), pendingRecord: replyText(second) };
  if (Array.isArray(second)) return { status: 'replay', entry: [replyText(first), second.map(replyText)] };
  return { status: 'replay', json: replyText(first) };
}

const appendMessage = script('append_message', decodeAppendMessage);
/**
 * `pending` is the message's outbox record (lua/append_message-7.lua): `record` is set when the message was
 * written now; on a replay only the id is known (the record may be completed already).
 */
export type AppendOutcome =
  | { status: 'not_found' }
  /** The Idempotency-Key was used before with another body: nothing was written. */
  | { status: 'key_reused' }
  | { status: 'created' | 'replay'; message: Message; pending: PendingRef };

/** What makes two sends with one Idempotency-Key the same request: the (validated) body. */
const fingerprint = (draft: Pick<MessageDraft, 'body'>) => createHash('sha256').update(draft.body).digest('base64url');

/** How much history a thread keeps: at most `maxMessages`, none older than `maxAgeMs`. */
export type ThreadBounds = { maxMessages: number; maxAgeMs: number };
export const DEFAULT_THREAD_BOUNDS: ThreadBounds = { maxMessages: DEFAULT_CONFIG.THREAD_MAX_MESSAGES, maxAgeMs: DEFAULT_CONFIG.THREAD_MAX_AGE_DAYS * DAY_MS };

/**
 * A match's thread: a stream of its messages, entry id `<message id>-<created at, ms>`, the one copy of each
 * message (lua/append_message-7.lua, thread-entries.ts).
 */
export class MessageRepository {
  constructor(
    private readonly redis: RedisClient,
    private readonly scripts: Scripts,
    private readonly bounds: ThreadBounds = DEFAULT_THREAD_BOUNDS,
  ) {}

  /**
   * Appends a message to a current match of the sender's (checked again atomically: a match ended
   * meanwhile answers not_found). With an Idempotency-Key, a repeat returns the first message, and the
   * same key with another body answers key_reused.
   */
  async append(pool: Pool, match: MatchHead, draft: MessageDraft, now: Date, idempotencyKey?: string): Promise<AppendOutcome> {
    const shard = matchShard(match.id);
    // Without an Idempotency-Key the script is told so (a lifetime of 0) and leaves the key it is given alone.
    const idempotency = keys.idempotency(pool, shard, draft.sender_id, `matches/${match.id}/messages`, idempotencyKey ?? '');
    const keyList = [
      keys.match(pool, match.id),
      keys.thread(pool, match.id),
      keys.messageSeq(pool, shard),
      keys.shardOutbox(pool, shard),
      keys.shardOutboxDue(pool, shard),
      idempotency,
      keys.readState(pool, match.id),
    ];
    const reply = await this.scripts.runAcknowledged(appendMessage, keyList, [
      draft.sender_id,
      now.getTime(),
      match.id,
      idempotencyKey ? IDEMPOTENCY_TTL_SECONDS : 0,
      SHARDS,
      shard,
      fingerprint(draft),
      this.bounds.maxMessages,
      this.bounds.maxAgeMs,
      now.getTime() - this.bounds.maxAgeMs,
      ...entryFields(draft),
    ]);
    if (reply.status === 'key_reused' || reply.status === 'not_found') return { status: reply.status };
    if (reply.status === 'created') {
      const message = { ...draft, id: messageIdOfEntry(reply.entryId), created_at: now.toISOString() };
      return { status: 'created', message, pending: { shard, id: `m${message.id}`, record: reply.pendingRecord } };
    }
    const message = 'entry' in reply ? messageFromEntry(match.id, reply.entry) : (JSON.parse(reply.json) as Message);
    return { status: 'replay', message, pending: { shard, id: `m${message.id}` } };
  }

  /**
   * Claims an Idempotency-Key for a send of `body` to match `matchId` among the sender's messages: undefined
   * when the key is this send's, else the match id the key was first used for and whether the body was the same.
   */
  async claimKey(pool: Pool, senderId: number, matchId: number, body: string, key: string): Promise<{ matchId: number; sameBody: boolean } | undefined> {
    const request = fingerprint({ body });
    const held = await claimIdempotencyKey(this.scripts, { pool, userId: senderId }, 'message', key, { target: String(matchId), request });
    return held && { matchId: Number(held.target), sameBody: held.request === request };
  }

  /** Messages by match and message id: message id → message, for those their threads still keep. */
  async findMany(pool: Pool, refs: ReadonlyArray<{ matchId: number; messageId: number }>): Promise<Map<number, Message>> {
    // One read each in its thread's slot, sent together.
    const found = await Promise.all(refs.map(({ matchId, messageId }) => readEntry(this.redis, keys.thread(pool, matchId), messageId)));
    const out = new Map<number, Message>();
    found.forEach((entry, i) => {
      if (entry) out.set(refs[i]!.messageId, messageFromEntry(refs[i]!.matchId, entry));
    });
    return out;
  }

  /**
   * A message of the match's thread, or of the thread its end kept for reports (keys.endedThread); undefined
   * when neither holds it. Both are read: the match may end between its lookup and this one.
   */
  async findForReport(pool: Pool, matchId: number, messageId: number): Promise<Message | undefined> {
    const found = await Promise.all([keys.thread(pool, matchId), keys.endedThread(pool, matchId)].map((key) => readEntry(this.redis, key, messageId)));
    const entry = found[0] ?? found[1];
    return entry ? messageFromEntry(matchId, entry) : undefined;
  }

  /** The newest `limit` messages before the cursor (a message id), oldest first within the page. */
  async list(pool: Pool, matchId: number, { limit, after }: PageRequest<number>): Promise<Page<Message, number>> {
    // Entry ids are `<message id>-<ms>`: `<after - 1>` reaches every entry of the messages before `after`.
    const raw = (await this.redis.xrevrange(keys.thread(pool, matchId), after ? String(after - 1) : '+', '-', 'COUNT', limit + 1)) as ThreadEntry[];
    const page = raw.slice(0, limit).map((entry) => messageFromEntry(matchId, entry));
    const oldest = page.at(-1);
    return { items: page.reverse(), next: raw.length > limit && oldest ? oldest.id : null };
  }
}

/** The newest message of each match's thread, in order (null where the thread is empty or gone). */
export async function newestMessages(redis: RedisClient, pool: Pool, matchIds: readonly number[]): Promise<Array<Message | null>> {
  const found = await Promise.all(matchIds.map((id) => redis.xrevrange(keys.thread(pool, id), '+', '-', 'COUNT', 1) as Promise<ThreadEntry[]>));
  return found.map((entries, i) => newestFromEntries(matchIds[i]!, entries));
}

/** The entry of message `messageId` in a thread (its entry id starts with the message id), if the thread holds it. */
async function readEntry(redis: RedisClient, thread: string, messageId: number): Promise<ThreadEntry | undefined> {
  const [entry] = (await redis.xrange(thread, String(messageId), String(messageId), 'COUNT', 1)) as ThreadEntry[];
  return entry;
}
