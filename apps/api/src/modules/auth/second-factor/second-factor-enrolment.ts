import type {
  LoginResponse,
  PasskeyRegistered,
  SecondFactorEnrolled,
  SecondFactorStatus,
  TotpEnrolment,
} from '@pss/contract';
import { AppError } from '../../../lib/errors.js';
import type { UserRow } from '../../users/users.service.js';
import { auditTarget } from '../../audit/audit-scope.service.js';
import type { IssuedSession } from '../auth-sessions.js';
import { newRecoveryCodes } from './recovery-codes.js';
import { factorRequired, type SecondFactorDeps } from './second-factor-checks.js';
import type { PasskeyRow, SecondFactorRepository } from './second-factor.repository.js';
import { newTotpSecret, qrCodeSvg, stepOfCode, asAppCode, totpLink } from './totp.js';

/** Who changes their own factors: a signed-in staff member, and their session (which stays). */
export interface SignedInMember {
  userId: string;
  sessionId: string | null;
}

/**
 * Who is setting up a factor: a signed-in staff member, or one half signed in whose role must
 * have a factor (`challengeId`: their sign-in, which the enrolment completes; `sessionId` null).
 */
export interface EnrollingMember extends SignedInMember {
  challengeId: string | null;
}

/** What an enrolment gives: recovery codes, and the session when it was the sign-in's step. */
interface Completed {
  recoveryCodes: string[];
  session: IssuedSession<LoginResponse> | null;
}

const passkeyOf = (key: PasskeyRow) => ({
  id: key.id,
  name: key.name,
  created_at: key.createdAt.toISOString(),
  last_used_at: key.lastUsedAt?.toISOString() ?? null,
});

/** Setting up, listing and removing a staff member's own factors. */
export function createSecondFactorEnrolment(deps: SecondFactorDeps) {
  const { repository, checks, lock, passkeys, clock, requiredRoles } = deps;

  /**
   * The member, and their half-signed-in step when they are in it: still live, and only while
   * they have no factor at all (enrolment opens nothing for a member who has one).
   */
  async function memberOf(member: EnrollingMember) {
    const user = await checks.staffMember(member.userId);
    if (!member.challengeId) return { user, challenge: undefined };
    const [challenge, factors] = await Promise.all([
      repository.challengeById(member.challengeId),
      repository.factorsOf(user.id),
    ]);
    const live = challenge && !challenge.usedAt && challenge.expiresAt > clock.now();
    if (!live || factors.totp || factors.passkeys > 0) throw new AppError('MFA_SIGN_IN_EXPIRED');
    return { user, challenge };
  }

  /** A change of the member's own factors: see `changeFactors` (member-lock.ts). */
  const changeOf = (user: UserRow, member: EnrollingMember) => ({
    user,
    keepSessionId: member.challengeId ? null : member.sessionId,
    completesStep: member.challengeId,
  });

  /**
   * Recovery codes kept with a new factor (in its transaction): always with an app, with a
   * passkey when the member has none left. Made before (hashing takes a while), shown if kept.
   */
  async function keepCodes(
    rows: SecondFactorRepository,
    userId: string,
    codes: Awaited<ReturnType<typeof newRecoveryCodes>> | null,
    always: boolean,
  ): Promise<string[]> {
    if (!codes || (!always && (await rows.recoveryCodesLeft(userId)) > 0)) return [];
    await rows.replaceRecoveryCodes(userId, codes.kept, clock.now());
    return codes.shown;
  }

  /**
   * Refuses removing the last factor of a member whose role must have one; read in the
   * removal's transaction, so two removals at once cannot both leave the other.
   */
  async function keepOneFactor(
    rows: SecondFactorRepository,
    user: UserRow,
    leaving: { totp?: boolean; passkeyId?: string },
  ): Promise<void> {
    const totpLeft = !leaving.totp && Boolean((await rows.findTotp(user.id))?.confirmedAt);
    const keysLeft = (await rows.listPasskeys(user.id)).filter((key) => key.id !== leaving.passkeyId).length;
    if (!totpLeft && keysLeft === 0) {
      if (factorRequired(user.role, requiredRoles)) throw new AppError('MFA_FACTOR_REQUIRED');
      // No factor left: the recovery codes stand for nothing any more.
      await rows.replaceRecoveryCodes(user.id, [], clock.now());
    }
  }

  const toEnrolled = (done: Completed): SecondFactorEnrolled => ({
    recovery_codes: done.recoveryCodes,
    ...(done.session ? { session: done.session.body } : {}),
  });

  return {
    async status(userId: string): Promise<SecondFactorStatus> {
      const user = await checks.staffMember(userId);
      const [factors, keys] = await Promise.all([repository.factorsOf(user.id), repository.listPasskeys(user.id)]);
      return {
        totp: factors.totp,
        passkeys: keys.map(passkeyOf),
        recovery_codes_left: factors.recoveryCodes,
        required: factorRequired(user.role, requiredRoles),
      };
    },

    /** A new secret for an authenticator app, awaiting its first code (a confirmed app stays: 409). */
    async enrolTotp(member: EnrollingMember): Promise<TotpEnrolment> {
      const { user } = await memberOf(member);
      const secret = newTotpSecret();
      if (!(await repository.startTotp(user.id, secret, clock.now()))) throw new AppError('MFA_ALREADY_ENROLLED');
      const link = totpLink(user.email, secret);
      return { secret, otpauth_url: link, qr_svg: await qrCodeSvg(link) };
    },

    /** The app's first code confirms it: ten new recovery codes, and the session of a sign-in's enrolment. */
    async confirmTotp(
      member: EnrollingMember,
      typed: string,
    ): Promise<{ body: SecondFactorEnrolled; session: IssuedSession | null }> {
      const { user } = await memberOf(member);
      const totp = await repository.findTotp(user.id);
      if (!totp) throw new AppError('MFA_NOT_ENROLLED');
      if (totp.confirmedAt) throw new AppError('MFA_ALREADY_ENROLLED');
      const step = await checks.counted(user.id, async () => {
        const code = asAppCode(typed);
        const step = code ? await stepOfCode(totp.secret, code, clock.now()) : null;
        if (step === null) throw new AppError('MFA_CODE_INCORRECT');
        return step;
      });
      const codes = await newRecoveryCodes();
      const done = await lock.changeFactors(changeOf(user, member), async (rows) => {
        // Another confirmation (or a new secret) came first.
        if (!(await rows.confirmTotp(user.id, totp.secret, step, clock.now()))) {
          throw new AppError('MFA_ALREADY_ENROLLED');
        }
        return keepCodes(rows, user.id, codes, true);
      });
      const completed = { recoveryCodes: done.result, session: done.session };
      return { body: toEnrolled(completed), session: done.session };
    },

    /** Removes the app, with one of its current codes. */
    async removeTotp(member: SignedInMember, code: string): Promise<void> {
      const user = await checks.staffMember(member.userId);
      const totp = await repository.findTotp(user.id);
      if (!totp?.confirmedAt) throw new AppError('MFA_NOT_ENROLLED');
      await checks.counted(user.id, () => checks.spendAppCode(user.id, code));
      await lock.changeFactors({ user, keepSessionId: member.sessionId, completesStep: null }, async (rows) => {
        await keepOneFactor(rows, user, { totp: true });
        await rows.removeTotp(user.id);
      });
    },

    /** Ten new recovery codes for the old ones, with a current code of the app. */
    async renewRecoveryCodes(userId: string, code: string): Promise<string[]> {
      const user = await checks.staffMember(userId);
      await checks.counted(user.id, () => checks.spendAppCode(user.id, code));
      const codes = await newRecoveryCodes();
      await repository.replaceRecoveryCodes(user.id, codes.kept, clock.now());
      return codes.shown;
    },

    /** Options for adding a passkey; the challenge is kept on the member's sign-in, or a registration of its own. */
    async passkeyRegistrationOptions(member: EnrollingMember) {
      const { user, challenge } = await memberOf(member);
      const options = await passkeys.registrationOptions(
        { id: user.id, email: user.email, name: `${user.firstName} ${user.lastName}` },
        await repository.listPasskeys(user.id),
      );
      if (challenge) await repository.setWebauthnChallenge(challenge.id, options.challenge);
      else {
        await repository.endRegistrations(user.id, clock.now());
        await checks.newChallenge(user.id, 'register', options.challenge);
      }
      return options;
    },

    /** Keeps the passkey the browser made for the options above. */
    async registerPasskey(
      member: EnrollingMember,
      name: string,
      response: Record<string, unknown>,
    ): Promise<{ body: PasskeyRegistered; session: IssuedSession | null }> {
      const { user, challenge } = await memberOf(member);
      const ceremony = challenge ?? (await repository.liveRegistration(user.id, clock.now()));
      if (!ceremony?.webauthnChallenge) throw new AppError('MFA_SIGN_IN_EXPIRED');
      const made = await checks.counted(user.id, () =>
        passkeys.verifyRegistration(response, ceremony.webauthnChallenge!),
      );
      if (await repository.findPasskey(made.credentialId)) throw new AppError('PASSKEY_NOT_VERIFIED');
      const codes = (await repository.recoveryCodesLeft(user.id)) === 0 ? await newRecoveryCodes() : null;
      const done = await lock.changeFactors(changeOf(user, member), async (rows) => {
        // A signed-in member's registration is spent here; a sign-in's step, by the change.
        if (!challenge && !(await rows.spendChallenge(ceremony.id, clock.now()))) {
          throw new AppError('MFA_SIGN_IN_EXPIRED');
        }
        const key = await rows.addPasskey({ ...made, userId: user.id, name, createdAt: clock.now() });
        return { key, recoveryCodes: await keepCodes(rows, user.id, codes, false) };
      });
      const completed = { recoveryCodes: done.result.recoveryCodes, session: done.session };
      return { body: { ...toEnrolled(completed), passkey: passkeyOf(done.result.key) }, session: done.session };
    },

    async removePasskey(member: SignedInMember, passkeyId: string): Promise<void> {
      const user = await checks.staffMember(member.userId);
      const keys = await repository.listPasskeys(user.id);
      if (!keys.some((key) => key.id === passkeyId)) throw new AppError('NOT_FOUND');
      auditTarget('passkey', passkeyId);
      await lock.changeFactors({ user, keepSessionId: member.sessionId, completesStep: null }, async (rows) => {
        await keepOneFactor(rows, user, { passkeyId });
        if (!(await rows.removePasskey(user.id, passkeyId))) throw new AppError('NOT_FOUND');
      });
    },
  };
}

export type SecondFactorEnrolment = ReturnType<typeof createSecondFactorEnrolment>;
