import type { z } from 'zod';
import type { Pool } from '../store/keys.js';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export type Auth = { userId: number; pool: Pool; jti: string; exp: number };

export type Request<B = unknown> = {
  method: Method;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  ip: string;
  requestId: string;
  body: B;
  auth?: Auth;
};

export type Reply =
  | { status: number; json?: unknown; headers?: Record<string, string> }
  | { status: number; text: string; contentType: string; headers?: Record<string, string> };

export type RouteDoc = {
  summary: string;
  tags?: string[];
  body?: z.ZodType;
  query?: z.ZodType;
  response?: { status: number; schema?: z.ZodType; description: string };
  errors?: number[];
};

export type Route = {
  method: Method;
  /** uWS pattern, parameters as `:name`. */
  path: string;
  /** Requires a bearer token; the handler gets `req.auth`. */
  auth?: boolean;
  /** Reads a JSON object body (415 for another type, 400 invalid_json for bad JSON). */
  body?: boolean;
  doc: RouteDoc;
  handler: (req: Request & { auth: Auth }) => Promise<Reply> | Reply;
};

export const json = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({ status, json: body, headers });
export const noContent = (): Reply => ({ status: 204 });
