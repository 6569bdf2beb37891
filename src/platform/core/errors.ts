/** The one catalogue of error codes the API answers with (docs/api.md, "Errors"). */
export type FieldProblem = { field: string; message: string };

export type ErrorCode =
  | 'invalid_json'
  | 'validation_failed'
  | 'unauthorized'
  | 'invalid_credentials'
  | 'account_suspended'
  | 'not_found'
  | 'match_ended'
  | 'method_not_allowed'
  | 'email_taken'
  | 'idempotency_key_reused'
  | 'cannot_undo'
  | 'too_many_open_reports'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'unavailable'
  | 'storage_full'
  | 'internal';

/** The HTTP status each code is answered with. */
const STATUS: Record<ErrorCode, number> = {
  invalid_json: 400,
  validation_failed: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  account_suspended: 403,
  not_found: 404,
  match_ended: 410,
  method_not_allowed: 405,
  email_taken: 409,
  idempotency_key_reused: 409,
  cannot_undo: 409,
  too_many_open_reports: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  unavailable: 503,
  storage_full: 507,
  internal: 500,
};

/** Every error code, in the catalogue's order. */
export const ERROR_CODES = Object.keys(STATUS) as ErrorCode[];

/** The HTTP status a code is answered with. */
export const statusOf = (code: ErrorCode): number => STATUS[code];

/** Why a swipe cannot be undone (`cannot_undo`'s `reason`). */
export const UNDO_REFUSALS = ['not_a_pass', 'not_last_pass', 'window_passed'] as const;
export type UndoRefusal = (typeof UNDO_REFUSALS)[number];

/** Whose open reports are at their cap (`too_many_open_reports`'s `scope`). */
export const REPORT_CAP_SCOPES = ['reporter', 'pool'] as const;
export type ReportCapScope = (typeof REPORT_CAP_SCOPES)[number];

/**
 * The fields an error may carry beside `code`, `message` and `details`: the only ones, so the API document's
 * `Error` schema (platform/http/response-schemas.ts) can describe every error the service sends.
 */
export type ErrorExtras = {
  /** `rate_limited`, `storage_full`: seconds to wait before retrying (also the `Retry-After` header). */
  retry_after_seconds?: number;
  /** `rate_limited` on a cap of open sockets or connections: the cap. */
  limit?: number;
  /** `match_ended`: when the match ended. */
  ended_at?: string;
  /** `cannot_undo`: why the swipe cannot be undone. */
  reason?: UndoRefusal;
  /** `too_many_open_reports`: whose reports are at their cap. */
  scope?: ReportCapScope;
};

/** What a client should do next, as data; the HTTP layer turns it into headers (`Retry-After`, `Allow`). */
export type ErrorHints = {
  /** Seconds to wait before retrying. */
  retryAfterSeconds?: number;
  /** The methods the path accepts. */
  allow?: string[];
  /** The challenge of a 401 (`WWW-Authenticate`, RFC 6750): `Bearer`, with `error="invalid_token"` when a token was sent but is bad. */
  challenge?: string;
};

const BEARER_CHALLENGE = 'Bearer';
const INVALID_TOKEN_CHALLENGE = 'Bearer error="invalid_token"';

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: FieldProblem[],
    readonly hints: ErrorHints = {},
    readonly extra?: ErrorExtras,
  ) {
    super(message);
    this.status = STATUS[code];
  }

  toBody() {
    return {
      error: {
        code: this.code,
        message: this.message,
        details: this.details ?? [],
        ...this.extra,
      },
    };
  }
}

/**
 * The one wording of a `validation_failed` message: "Invalid request: <field> <problem>; …." listing the
 * first three problems (every one is in `details`).
 */
export function describeProblems(details: FieldProblem[]): string {
  const shown = details
    .slice(0, 3)
    .map((d) => `${d.field} ${d.message}`)
    .join('; ');
  return `Invalid request: ${shown}${details.length > 3 ? `; and ${details.length - 3} more (see details)` : ''}.`;
}

export const errors = {
  invalidJson: (message = 'The request body is not valid JSON; send a JSON object.') => new AppError('invalid_json', message),
  validation: (details: FieldProblem[]) => new AppError('validation_failed', describeProblems(details), details),
  invalidField: (field: string, message: string) => errors.validation([{ field, message }]),
  /** No token (or none in the Bearer form) was sent. */
  unauthorized: (message = 'Send a valid token as "Authorization: Bearer <token>"; log in or register to get one.') =>
    new AppError('unauthorized', message, undefined, { challenge: BEARER_CHALLENGE }),
  /** A token was sent, but it is malformed, expired, revoked, or its account is gone. */
  invalidToken: (message: string) => new AppError('unauthorized', message, undefined, { challenge: INVALID_TOKEN_CHALLENGE }),
  invalidCredentials: () =>
    new AppError('invalid_credentials', 'The e-mail or password is wrong; check both and try again.', undefined, { challenge: BEARER_CHALLENGE }),
  wrongPassword: (outcome = 'nothing was changed') =>
    new AppError('invalid_credentials', `The password given is not this account's current password; ${outcome}.`, undefined, { challenge: BEARER_CHALLENGE }),
  /** The caller's account is suspended by the service's operators: its tokens and its login are refused until they lift it. */
  accountSuspended: () =>
    new AppError(
      'account_suspended',
      'This account is suspended by the operators of this service: it cannot log in, and no request is served to it, until the suspension is lifted.',
    ),
  /** The other account of the caller's match is suspended: nothing can be sent to it until the suspension is lifted. */
  /** `hint`: what the caller may have confused it with, as a sentence. */
  notFound: (what = 'resource', hint?: string) => new AppError('not_found', `No such ${what}.${hint ? ` ${hint}` : ''}`),
  /** A match of the caller's that has ended (either of its users unmatched): its thread is closed and gone. */
  matchEnded: (endedAt: string) =>
    new AppError(
      'match_ended',
      `This match ended at ${endedAt} (one of you unmatched): its conversation is closed and its messages are gone, for both of you. Find new matches in GET /api/v1/discovery/feed; GET /api/v1/matches lists your current ones.`,
      undefined,
      {},
      { ended_at: endedAt },
    ),
  methodNotAllowed: (allow: string[]) => new AppError('method_not_allowed', `This path accepts only ${allow.join(', ')}.`, undefined, { allow }),
  emailTaken: () =>
    new AppError('email_taken', 'An account with this e-mail already exists; log in instead or use another e-mail.', [
      { field: 'email', message: 'is already registered' },
    ]),
  /** An Idempotency-Key sent again with a different request (`what` differs); nothing was done. */
  idempotencyKeyReused: (what: string) =>
    new AppError(
      'idempotency_key_reused',
      `This Idempotency-Key was already used with a different ${what}, so nothing was done; send a new request with a new key (a fresh UUID), or repeat the first request unchanged to get its answer again.`,
    ),
  /**
   * A swipe that cannot be undone (only the caller's last pass can, within the undo window): `reason`
   * names why as data, `message` says it and what to do instead.
   */
  cannotUndo: (reason: UndoRefusal, message: string) => new AppError('cannot_undo', message, undefined, {}, { reason }),
  /** A report refused because its reporter (`scope` reporter) or its pool has as many reports waiting as it may; nothing was filed. */
  tooManyOpenReports: (scope: ReportCapScope, most: number) =>
    new AppError(
      'too_many_open_reports',
      scope === 'reporter'
        ? `You already have ${most} reports waiting for the operators, the most one account may: this one was not filed. Report again once they have closed one of yours.`
        : `The operators have ${most} reports waiting in this pool, the most kept at once: this one was not filed. Report again later, once they have closed some.`,
      undefined,
      {},
      { scope },
    ),
  payloadTooLarge: (limit: number) => new AppError('payload_too_large', `The request body is larger than ${limit} bytes; send less.`),
  unsupportedMediaType: () => new AppError('unsupported_media_type', 'Send the body as JSON with "Content-Type: application/json".'),
  rateLimited: (retryAfterSeconds: number, what = 'requests') =>
    new AppError(
      'rate_limited',
      `Too many ${what}; wait ${retryAfterSeconds} seconds and try again.`,
      undefined,
      { retryAfterSeconds },
      { retry_after_seconds: retryAfterSeconds },
    ),
  unavailable: () =>
    new AppError('unavailable', 'The service cannot reach its data store right now; retry in a few seconds.', undefined, {
      retryAfterSeconds: 2,
    }),
  /** A write Redis ran but too few of its replicas confirmed in time (REDIS_MIN_REPLICAS_ACK): not acknowledged, as a failover could lose it. */
  notReplicated: () =>
    new AppError(
      'unavailable',
      'The data store could not confirm your write on its replicas in time, so it may not be kept; retry it (with the same Idempotency-Key, if you sent one) in a second.',
      undefined,
      { retryAfterSeconds: 1 },
    ),
  /** Redis reached its memory limit and refuses writes (nothing of the request was stored); reads still work. */
  storageFull: (retryAfterSeconds = 30) =>
    new AppError(
      'storage_full',
      `The service's data store is full, so nothing was saved; reading still works. Retry in ${retryAfterSeconds} seconds.`,
      undefined,
      { retryAfterSeconds },
      { retry_after_seconds: retryAfterSeconds },
    ),
  internal: () => new AppError('internal', 'Something went wrong on our side; the error was logged.'),
};
