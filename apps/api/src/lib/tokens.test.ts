import { describe, expect, it } from 'vitest';
import { createTokenService } from './tokens.js';

const claims = { userId: 'user-1', role: 'ADMIN' as const, clientId: 'client-1', sessionId: 'session-1' };
const signedAt = new Date('2026-11-24T12:00:00Z');
const later = (seconds: number) => new Date(signedAt.getTime() + seconds * 1000);

// The service keeps the tokens it verified: the second use of a token must answer exactly
// what jose would, its expiry included.
describe('access tokens verified again', () => {
  it('answers the same claims on every use within the lifetime', async () => {
    const tokens = createTokenService('a-secret-of-some-length', 900);
    const token = await tokens.signAccessToken(claims, signedAt);
    expect(await tokens.verifyAccessToken(token, later(1))).toEqual(claims);
    expect(await tokens.verifyAccessToken(token, later(899))).toEqual(claims);
  });

  it('refuses a known token from its expiry on, as jose does (exp <= now)', async () => {
    const tokens = createTokenService('a-secret-of-some-length', 900);
    const token = await tokens.signAccessToken(claims, signedAt);
    expect(await tokens.verifyAccessToken(token, later(10))).not.toBeNull();
    expect(await tokens.verifyAccessToken(token, later(900))).toBeNull();
    expect(await tokens.verifyAccessToken(token, later(10))).not.toBeNull();
  });

  it('gives each caller its own claims object', async () => {
    const tokens = createTokenService('a-secret-of-some-length', 900);
    const token = await tokens.signAccessToken(claims, signedAt);
    const first = await tokens.verifyAccessToken(token, later(1));
    first!.role = 'SUPERADMIN';
    expect((await tokens.verifyAccessToken(token, later(2)))!.role).toBe('ADMIN');
  });

  it('still refuses an altered token, another secret, and a link token', async () => {
    const tokens = createTokenService('a-secret-of-some-length', 900);
    const token = await tokens.signAccessToken(claims, signedAt);
    await tokens.verifyAccessToken(token, later(1));
    const [header, payload, signature] = token.split('.');
    const altered = `${header}.${payload}.${signature!.startsWith('A') ? 'B' : 'A'}${signature!.slice(1)}`;
    expect(await tokens.verifyAccessToken(altered, later(1))).toBeNull();
    expect(await createTokenService('another-secret-entirely', 900).verifyAccessToken(token, later(1))).toBeNull();
    const link = await tokens.signLinkToken('user-1', signedAt, 7);
    expect(await tokens.verifyAccessToken(link, later(1))).toBeNull();
    expect(await tokens.verifyLinkToken(link, later(1))).toMatchObject({ userId: 'user-1' });
  });
});
