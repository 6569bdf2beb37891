import type { PublicRequest } from '../../platform/http/types.js';

/**
 * The service's base URL as the caller reached it, for the documents that name it (/skill.md, the agent card,
 * /llms.txt): the `Host` header when it is a plain host (else `localhost:8080`), over `https` when a proxy says
 * so in `X-Forwarded-Proto`.
 */
export function baseUrlOf(req: Pick<PublicRequest, 'headers'>): string {
  const given = req.headers.host ?? '';
  const host = /^[\w.:[\]-]{1,255}$/.test(given) ? given : 'localhost:8080';
  const proto = req.headers['x-forwarded-proto'] === 'https' ? 'https' : 'http';
  return `${proto}://${host}`;
}
