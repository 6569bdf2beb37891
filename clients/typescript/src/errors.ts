import type { components } from './generated/openapi.js';

/** The body of every refusal: `{"error": {code, message, details, …}}`. */
export type ErrorEnvelope = components['schemas']['Error'];
/** What the service says went wrong: `code`, `message`, `details`, and the fields some codes add. */
export type ServiceError = ErrorEnvelope['error'];
export type ErrorCode = ServiceError['code'];

function isEnvelope(body: unknown): body is ErrorEnvelope {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return typeof error?.code === 'string' && typeof error.message === 'string';
}

/** A refusal of the service, with its status and its error envelope's fields. */
export class AgentMatchError extends Error {
  override readonly name = 'AgentMatchError';

  constructor(
    readonly status: number,
    readonly error: ServiceError,
  ) {
    super(error.message);
  }

  get code(): ErrorCode {
    return this.error.code;
  }

  /** The fields at fault, each with its problem; empty when no field is. */
  get details(): ServiceError['details'] {
    return this.error.details;
  }

  /** Seconds to wait before retrying, with `rate_limited` and `storage_full`. */
  get retryAfterSeconds(): number | undefined {
    return this.error.retry_after_seconds;
  }

  /** The error of a response: its envelope, or, from something in front of the service that answered without one, its status in words. */
  static of(status: number, body: unknown): AgentMatchError {
    if (isEnvelope(body)) return new AgentMatchError(status, body.error);
    const text = typeof body === 'string' ? body.slice(0, 200) : JSON.stringify(body ?? null);
    const message = `HTTP ${status} without the service's error envelope: ${text}`;
    return new AgentMatchError(status, { code: status >= 500 ? 'unavailable' : 'internal', message, details: [] });
  }
}

/** What each call of the client resolves to (openapi-fetch's answer). */
type Answer<T> = { data?: T; error?: unknown; response: Response };

/**
 * The data of a successful answer, or the refusal thrown as an AgentMatchError:
 * `const me = await ok(client.GET('/api/v1/me'))`.
 */
export async function ok<T>(answer: Promise<Answer<T>> | Answer<T>): Promise<T> {
  const { data, error, response } = await answer;
  if (!response.ok) throw AgentMatchError.of(response.status, error);
  return data as T;
}
