import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Links that carry their own permission: a token that names what it opens (a resource's id,
 * file or thumbnail, inline or as a download) and until when, with an HMAC-SHA256 of all
 * that under the server's secret and the links' purpose (so no other signature of the
 * platform passes for one). Whoever holds the link may fetch that one thing until it
 * expires; an altered or expired link is refused. Used for files a browser fetches by
 * address (an `<img>`, a `<video>`, a PDF), which cannot send the session's bearer token.
 * Compact (about 70 characters), so it fits a path segment.
 */
export interface FileLinkPayload {
  /** The resource's id. */
  r: string;
  k: 'file' | 'thumbnail';
  d: 'inline' | 'attachment';
}

export interface SignedLinks {
  sign(payload: FileLinkPayload, now: Date, ttlSeconds: number): { token: string; expiresAt: Date };
  /** The payload, or null when the token is altered, expired or malformed. */
  verify(token: string, now: Date): FileLinkPayload | null;
}

const TOKEN = /^([0-9a-f]{32})\.([ft])([ia])\.([0-9a-z]{1,10})\.([A-Za-z0-9_-]{22})$/;

export function createSignedLinks(secret: string, purpose: string): SignedLinks {
  const mac = (body: string) =>
    createHmac('sha256', secret).update(`${purpose}\n${body}`).digest('base64url').slice(0, 22);
  return {
    sign(payload, now, ttlSeconds) {
      const exp = Math.floor(now.getTime() / 1000) + ttlSeconds;
      const body = `${payload.r.replace(/-/g, '').toLowerCase()}.${payload.k[0]}${payload.d[0]}.${exp.toString(36)}`;
      return { token: `${body}.${mac(body)}`, expiresAt: new Date(exp * 1000) };
    },
    verify(token, now) {
      const match = TOKEN.exec(token);
      if (!match) return null;
      const [, hex, kind, disposition, exp, signature] = match as unknown as string[];
      const body = `${hex}.${kind}${disposition}.${exp}`;
      const expected = Buffer.from(mac(body));
      const given = Buffer.from(signature!);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
      if (parseInt(exp!, 36) * 1000 <= now.getTime()) return null;
      const id = `${hex!.slice(0, 8)}-${hex!.slice(8, 12)}-${hex!.slice(12, 16)}-${hex!.slice(16, 20)}-${hex!.slice(20)}`;
      return { r: id, k: kind === 'f' ? 'file' : 'thumbnail', d: disposition === 'i' ? 'inline' : 'attachment' };
    },
  };
}
