import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';

/** The name authenticator apps show beside the account. */
export const TOTP_ISSUER = 'Patient Simulation Platform';

/**
 * Codes one step (30 s) either side of now are taken: a phone's clock drifts, and a code
 * typed as it turns over still counts (RFC 6238 §5.2). Each is accepted once (the repository's
 * `spendStep`).
 */
const STEP_TOLERANCE_SECONDS = 30;

/** A new secret: 20 random bytes, Base32, as authenticator apps take it. */
export function newTotpSecret(): string {
  return generateSecret();
}

/** The `otpauth://` link an app reads from the QR code. */
export function totpLink(accountName: string, secret: string): string {
  return generateURI({ issuer: TOTP_ISSUER, label: accountName, secret });
}

/** The link as a QR code, an SVG drawn on the server: the web app needs no QR code library. */
export function qrCodeSvg(link: string): Promise<string> {
  return QRCode.toString(link, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
}

/** Whether a typed code looks like an app's (six digits), spaces aside. */
export function asAppCode(typed: string): string | null {
  const code = typed.replace(/\s/g, '');
  return /^\d{6}$/.test(code) ? code : null;
}

/** The time step a code belongs to, if it is the secret's code now or one step either side; else null. */
export async function stepOfCode(secret: string, code: string, now: Date): Promise<number | null> {
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(now.getTime() / 1000),
    epochTolerance: STEP_TOLERANCE_SECONDS,
  });
  // The functional API answers HOTP's result type too; a TOTP check's names its time step.
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}
