/**
 * fetch refuses URLs with credentials, where Python's requests (Ironic's and the agent's HTTP client)
 * sends them as basic auth. This moves a URL's userinfo into an Authorization header.
 */
export function splitUrlCredentials(url: string, headers: Record<string, string> = {}): { href: string; headers: Record<string, string> } {
  if (!/^https?:\/\//i.test(url)) return { href: url, headers };
  const parsed = new URL(url);
  if (!parsed.username && !parsed.password) return { href: url, headers };
  const basic = Buffer.from(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`).toString('base64');
  parsed.username = '';
  parsed.password = '';
  return { href: parsed.href, headers: { Authorization: `Basic ${basic}`, ...headers } };
}
