import { RefusedDestination } from './webhook-destinations.js';

const CONNECT = ['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'EHOSTDOWN', 'ETIMEDOUT', 'EADDRNOTAVAIL'];
const CLOSED = ['ECONNRESET', 'EPIPE', 'ECONNABORTED'];
const NO_NAME = ['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME'];
/** OpenSSL's verification results: standard names, safe and useful to show. */
const CERTIFICATE = /^(CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|ERR_TLS_CERT_ALTNAME_INVALID$)/;

/**
 * What a failed delivery connection says in the deliveries log: a few fixed phrases, never the system's
 * message, which names the address and port connected to (of a name's answer the agent does not see), the
 * receiver's certificate names or what a non-HTTP service answered: details that would let the log map
 * what lies behind a host.
 */
export function deliveryError(error: Error): string {
  if (error instanceof RefusedDestination) return error.reason;
  const code = codeOf(error);
  if (NO_NAME.includes(code)) return 'the host name did not resolve';
  if (CONNECT.includes(code)) return 'could not connect to the receiver';
  if (CLOSED.includes(code)) return 'the connection closed before an answer';
  if (code.startsWith('HPE_')) return 'the answer was not HTTP';
  if (CERTIFICATE.test(code)) return `TLS failed: the receiver's certificate was not accepted (${code})`;
  if (code === 'EPROTO' || code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_')) return 'TLS failed';
  return 'the connection failed';
}

/** The error's code; with several addresses tried, the first attempt's. */
function codeOf(error: Error): string {
  const { code, errors } = error as NodeJS.ErrnoException & { errors?: unknown[] };
  if (typeof code === 'string') return code;
  const first = errors?.[0] as NodeJS.ErrnoException | undefined;
  return typeof first?.code === 'string' ? first.code : '';
}
