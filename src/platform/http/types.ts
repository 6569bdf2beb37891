import type { z } from 'zod';
import type { ErrorCode } from '../core/errors.js';
import type { TokenPrincipal } from '../core/principal.js';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export type Request<B = unknown> = {
  method: Method;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  /** The query string as sent, without its `?` (empty when there is none). */
  queryString: string;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  ip: string;
  requestId: string;
  body: B;
  auth?: TokenPrincipal;
  /** Aborted when the client goes away before it is answered (a handler that waits stops waiting). */
  readonly signal: AbortSignal;
};

export type AuthedRequest<B = unknown> = Request<B> & { auth: TokenPrincipal };

/** What a public route's handler sees: no `auth` to read. */
export type PublicRequest<B = unknown> = Omit<Request<B>, 'auth'>;

export type Reply =
  | { status: number; json?: unknown; headers?: Record<string, string> }
  | { status: number; text: string; contentType: string; headers?: Record<string, string> };

export type RouteDoc = {
  summary: string;
  tags?: string[];
  body?: z.ZodType;
  query?: z.ZodType;
  /** A path parameter that is not a record id (an id is a positive integer, as idSchema reads it). */
  params?: Record<string, z.ZodType>;
  /** The success: a JSON body of `schema`, a body of another media type (`contentType`, without parameters), or none. */
  response?: {
    status: number;
    schema?: z.ZodType;
    contentType?: string;
    description: string;
    /** Other success statuses with the same body (a repeated create answered 200 rather than 201). */
    others?: Array<{ status: number; description: string }>;
  };
  /** A WebSocket's: the frames it sends (OpenAPI has no word for them: the document names them in `x-frames`). */
  frames?: z.ZodType;
  /** The error statuses the route answers (401 and 403 of a route with a token, and 503, are added). */
  errors?: number[];
  /**
   * The codes the route answers that its statuses do not say by themselves: every 409 code it gives (a 409
   * may be one of several), and `invalid_credentials` for a 401 that checks a password. Each other status
   * has its own codes (400: `validation_failed`, and `invalid_json` where a body is read; 401: `unauthorized`).
   */
  codes?: ErrorCode[];
  /** What an error status means on this route, in more words than its codes' own; it names those codes. */
  errorDescriptions?: Partial<Record<number, string>>;
};

type RouteBase = {
  method: Method;
  /** uWS pattern, parameters as `:name`. */
  path: string;
  /** Reads a JSON object body (415 for another type, 400 invalid_json for bad JSON), after authentication. */
  body?: boolean;
  doc: RouteDoc;
};

/** A route anyone may call; its handler cannot read `auth`. */
export type PublicRoute = RouteBase & {
  auth?: false;
  handler: (req: PublicRequest) => Promise<Reply> | Reply;
};

/** A route that requires a bearer token; the handler gets `req.auth`. */
export type AuthedRoute = RouteBase & {
  auth: true;
  handler: (req: AuthedRequest) => Promise<Reply> | Reply;
};

export type Route = PublicRoute | AuthedRoute;

/**
 * A route as it is declared, without its handler: its method, path, authentication and doc. A feature's
 * *-endpoints.ts lists its endpoints so that what describes a route (the API document, the MCP tools) reads
 * it without building the route's dependencies.
 */
export type PublicEndpoint = Omit<PublicRoute, 'handler'>;
export type AuthedEndpoint = Omit<AuthedRoute, 'handler'>;
export type Endpoint = PublicEndpoint | AuthedEndpoint;

export const json = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({ status, json: body, headers });
export const noContent = (): Reply => ({ status: 204 });
