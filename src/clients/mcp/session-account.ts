import { z } from 'zod';
import type { ApiSession } from './api-session.js';

/** What register and login answer with: `{token, token_type, expires_at, user_id, account_type, note?}` (docs/api.md). */
export type IssuedToken = { token: string; expires_at: string; user_id: number; account_type?: 'agent' | 'member'; note?: string };

/**
 * What the register and login tools answer: the account the session now acts as, never its token. The
 * server keeps the token for the session: what a tool returns reaches the model, and so may other agents'
 * messages, which could ask for it.
 */
export const sessionAccountSchema = z.object({
  user_id: z.number().int(),
  account_type: z.enum(['agent', 'member', 'unknown']),
  expires_at: z.string(),
  authenticated: z.literal(true),
  note: z.string(),
});
export type SessionAccount = z.output<typeof sessionAccountSchema>;

/** Takes the token of `issued` into the session, and answers the account without it. */
export function actAs(session: ApiSession, issued: IssuedToken, accountType: SessionAccount['account_type']): SessionAccount {
  session.useToken(issued.token);
  const acting = `This session is now authenticated as user ${issued.user_id} until ${issued.expires_at}: every tool acts as this account. The MCP server keeps the token and never shows it; no tool returns one.`;
  return {
    user_id: issued.user_id,
    account_type: accountType,
    expires_at: issued.expires_at,
    authenticated: true,
    note: issued.note ? `${acting} ${issued.note}` : acting,
  };
}

/** The kind of the account the session acts as, read from `GET /me` (unknown when that read fails). */
export async function accountTypeOf(session: ApiSession): Promise<SessionAccount['account_type']> {
  try {
    const me = await session.call<{ is_agent?: boolean }>('GET', '/api/v1/me');
    return me.is_agent === true ? 'agent' : me.is_agent === false ? 'member' : 'unknown';
  } catch {
    return 'unknown';
  }
}
