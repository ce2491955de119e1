import { createHmac, timingSafeEqual } from 'node:crypto';
import { API_PREFIX, emailUnsubscribeRoutes, fillPath, isReminderEmail } from '@pss/contract';

/**
 * The List-Unsubscribe links of reminder emails (RFC 8058): a token that names one participant
 * and one project and until when, with an HMAC-SHA256 of all that under the server's secret and
 * this purpose, so no other signature of the platform passes for one and none of these passes
 * for anything else. It can do one thing: stop that participant's reminders for that project.
 * It signs no one in (a dashboard link is a JWT of another audience), so a mail provider or a
 * forwarded message that carries it hands over nothing more.
 *
 * Long-lived: mailbox providers keep a message's unsubscribe address and may use it months
 * after the message came (a year; an older one answers UNSUBSCRIBE_LINK_INVALID and the
 * participant can still turn reminders off by replying or from a newer email).
 */
export const UNSUBSCRIBE_LINK_TTL_SECONDS = 365 * 24 * 3600;

const PURPOSE = 'pss-list-unsubscribe';
const TOKEN = /^([0-9a-f]{32})([0-9a-f]{32})\.([0-9a-z]{1,10})\.([A-Za-z0-9_-]{22})$/;

export interface UnsubscribeClaims {
  userId: string;
  projectId: string;
}

const hex = (uuid: string) => uuid.replace(/-/g, '').toLowerCase();
const uuidOf = (h: string) => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;

export function createUnsubscribeLinks(secret: string) {
  const mac = (body: string) =>
    createHmac('sha256', secret).update(`${PURPOSE}\n${body}`).digest('base64url').slice(0, 22);
  return {
    /** A token for the link (about 100 characters, fits a path segment). */
    sign(claims: UnsubscribeClaims, now: Date): string {
      const exp = Math.floor(now.getTime() / 1000) + UNSUBSCRIBE_LINK_TTL_SECONDS;
      const body = `${hex(claims.userId)}${hex(claims.projectId)}.${exp.toString(36)}`;
      return `${body}.${mac(body)}`;
    },
    /** Whose and which project's, or null when the token is altered, expired or malformed. */
    verify(token: string, now: Date): UnsubscribeClaims | null {
      const match = TOKEN.exec(token);
      if (!match) return null;
      const [, user, project, exp, signature] = match as unknown as [string, string, string, string, string];
      const expected = Buffer.from(mac(`${user}${project}.${exp}`));
      const given = Buffer.from(signature);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
      if (parseInt(exp, 36) * 1000 <= now.getTime()) return null;
      return { userId: uuidOf(user), projectId: uuidOf(project) };
    },
  };
}

export type UnsubscribeLinks = ReturnType<typeof createUnsubscribeLinks>;

/**
 * The header fields of RFC 2369 and RFC 8058 a reminder to a participant carries: where to
 * unsubscribe, and that a POST there does it in one click. Other emails (and test sends, which
 * go to no participant) carry none.
 */
export function listUnsubscribeHeaders(
  links: UnsubscribeLinks,
  publicUrl: string,
  work: { kind: string; userId: string | null; projectId: string; template: { type: string } },
  now: Date,
): Record<string, string> | undefined {
  if (work.kind === 'TEST' || !work.userId || !isReminderEmail(work.template.type)) return undefined;
  // Where a reminder's List-Unsubscribe points: a POST unsubscribes (one-click), a GET shows a page.
  const token = links.sign({ userId: work.userId, projectId: work.projectId }, now);
  const url = publicUrl + API_PREFIX + fillPath(emailUnsubscribeRoutes.oneClick, { token });
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}
