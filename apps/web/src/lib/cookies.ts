/** Cookie helpers (spec §9): set with an optional domain, check for existence, clear by expiring. */
export function hasCookie(name: string): boolean {
  return document.cookie.split(';').some((part) => part.trim().startsWith(`${name}=`));
}

export function setCookie(
  name: string,
  value: string,
  options: { domain?: string; maxAgeSeconds?: number } = {},
): void {
  const parts = [`${name}=${encodeURIComponent(value)}`, 'path=/', 'SameSite=Strict'];
  if (options.domain) parts.push(`domain=${options.domain}`);
  if (options.maxAgeSeconds !== undefined) parts.push(`max-age=${options.maxAgeSeconds}`);
  document.cookie = parts.join('; ');
}

export function clearCookie(name: string, domain?: string): void {
  const parts = [`${name}=`, 'path=/', 'expires=Thu, 01 Jan 1970 00:00:00 GMT'];
  if (domain) parts.push(`domain=${domain}`);
  document.cookie = parts.join('; ');
}
