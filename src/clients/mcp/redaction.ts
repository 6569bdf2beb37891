/**
 * AGENT_MATCH_URL may carry credentials (`https://user:pass@host`, or a `?token=` query): the server never
 * repeats them, in an error or in its log. What it shows of the URL is the scheme, host and path, with
 * `***` where a user name, a password or a query was.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '(the configured AGENT_MATCH_URL)';
  }
  const userinfo = parsed.username || parsed.password ? '***@' : '';
  const query = parsed.search ? '?***' : '';
  return `${parsed.protocol}//${userinfo}${parsed.host}${parsed.pathname}${query}`;
}

/** The secrets a URL carries: its user name, password, and each query value (as written and decoded). */
function secretsOf(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [url];
  }
  const written = [
    parsed.username,
    parsed.password,
    ...parsed.search
      .slice(1)
      .split('&')
      .map((pair) => pair.slice(pair.indexOf('=') + 1)),
  ];
  const decoded = [...parsed.searchParams.values(), safeDecode(parsed.username), safeDecode(parsed.password)];
  // The longest first, so that a secret holding another is hidden whole.
  return [...new Set([...written, ...decoded])].filter(Boolean).sort((a, b) => b.length - a.length);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A text (such as a network error's message) with the URL shown redacted and none of its secrets left in it. */
export function redactText(text: string, url: string): string {
  let out = text.split(url).join(redactUrl(url));
  for (const secret of secretsOf(url)) out = out.split(secret).join('***');
  return out;
}
