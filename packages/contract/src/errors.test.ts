import { describe, expect, it } from 'vitest';
import { errorCatalogue, errorCodes, isErrorCode } from './errors.js';

describe('error catalogue', () => {
  it('holds the codes of the specification with statuses and messages', () => {
    // 77 codes from the specification's inventory, plus FORBIDDEN, PAYLOAD_TOO_LARGE, TOO_MANY_REQUESTS,
    // CURRENT_PASSWORD_INCORRECT, SEASON_HAS_PARTICIPANT_WORK, PASSWORD_CODE_INVALID and SIGNED_LINK_INVALID;
    // the 7 of signing in through the organisation (OIDC_* and PASSWORD_LOGIN_DISABLED); and NOT_READY
    // (a process not ready to serve: /api/health/ready); DATABASE_UNAVAILABLE (503, a lost database
    // connection: retry); TEST_EMAIL_LIMIT_REACHED (429, test sends over their hourly limit);
    // RANGE_NOT_SATISFIABLE (416, a byte range outside a resource's file); SEASON_CLOSED and
    // START_SURVEY_REQUIRED (409, a participant's case after its season, or before the start survey);
    // EMAIL_DISABLED (409, "Send now" of a disabled email); SURVEY_EMPTY (422, a survey template without
    // a page, or with a page without a question or info review); and the 7 of a staff member's second
    // factor (MFA_CODE_INCORRECT, MFA_CODE_USED, MFA_SIGN_IN_EXPIRED, MFA_ALREADY_ENROLLED,
    // MFA_NOT_ENROLLED, MFA_FACTOR_REQUIRED, PASSKEY_NOT_VERIFIED); and the lockout's ACCOUNT_LOCKED (429,
    // an account locked by failed sign-ins) and UNLOCK_LINK_INVALID (400, its emailed link used or expired);
    // INVALID_PHONE (400, a support phone too long or with control characters); UNSUBSCRIBE_LINK_INVALID
    // (400, a reminder's one-click unsubscribe link altered or expired); EMAIL_STILL_PENDING (409, a line of
    // the delivery log sent again while its email is still on its way); FILE_MISSING (404, a file the
    // database names but the storage no longer holds).
    expect(errorCodes).toHaveLength(112);
    for (const code of errorCodes) {
      const entry = errorCatalogue[code];
      expect(code).toMatch(/^[A-Z][A-Z_]+$/);
      expect(entry.status).toBeGreaterThanOrEqual(400);
      expect(entry.status).toBeLessThan(600);
      expect(entry.message).toMatch(/^[A-Z].*\.$/);
    }
  });

  it('gives the statuses the API relies on', () => {
    expect(errorCatalogue.NOT_AUTHORIZED.status).toBe(401);
    expect(errorCatalogue.INCORRECT_PASSWORD.status).toBe(401);
    expect(errorCatalogue.VALIDATION_ERROR.status).toBe(400);
    expect(errorCatalogue.NOT_FOUND.status).toBe(404);
    expect(errorCatalogue.CLIENT_HAS_PROJECTS.status).toBe(409);
    expect(errorCatalogue.TOO_MANY_REQUESTS.status).toBe(429);
    expect(errorCatalogue.TEST_EMAIL_LIMIT_REACHED.status).toBe(429);
    expect(errorCatalogue.ACCOUNT_LOCKED.status).toBe(429);
    expect(errorCatalogue.OIDC_ACCOUNT_UNKNOWN.status).toBe(403);
    expect(errorCatalogue.OIDC_SIGN_IN_INVALID.status).toBe(400);
  });

  it('flags the families whose server message is shown (spec §8)', () => {
    const shown = errorCodes.filter((c) => errorCatalogue[c].showServerMessage);
    expect(shown).toEqual(
      expect.arrayContaining([
        'IMPORT_FAILED',
        'FIRST_NAME_REQUIRED',
        'ASSIGNMENTS_FORMAT_INVALID',
        'CASE_NOT_FOUND',
        'EMAILS_SEND_FAILED',
        'URL_ALREADY_EXISTS',
        'ROLE_REQUIRED',
      ]),
    );
    expect(errorCatalogue.NOT_FOUND.showServerMessage).toBe(false);
  });

  it('recognises codes', () => {
    expect(isErrorCode('CASE_IS_ACTIVE')).toBe(true);
    expect(isErrorCode('toString')).toBe(false);
    expect(isErrorCode(undefined)).toBe(false);
  });
});
