/**
 * The per-message return path (VERP): each email's SMTP envelope sender is
 * `bounces+<outbox id>@<BOUNCE_DOMAIN>`, so a bounce — which mail systems send to the
 * envelope sender, not to the From header — names the very email that bounced, even when
 * the report quotes nothing of the original message.
 */

const localPart = 'bounces';
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** `bounces+<outbox id>@<domain>`. */
export function verpAddress(outboxId: string, domain: string): string {
  return `${localPart}+${outboxId.toLowerCase()}@${domain}`;
}

/**
 * The outbox id a return-path address carries, or null when it is not one of ours. Takes a
 * bare address or one in angle brackets (as in a Return-Path or an X-Original-To header);
 * the domain is not checked, because a relay may rewrite it.
 */
export function outboxIdFromVerp(address: string): string | null {
  const bare = address
    .trim()
    .replace(/^<(.*)>$/, '$1')
    .trim();
  const at = bare.lastIndexOf('@');
  if (at < 0) return null;
  const local = bare.slice(0, at).toLowerCase();
  if (!local.startsWith(`${localPart}+`)) return null;
  const id = local.slice(localPart.length + 1);
  return uuidPattern.test(id) ? id : null;
}
