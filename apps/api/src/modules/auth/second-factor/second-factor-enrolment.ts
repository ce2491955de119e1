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
import type { PasskeyRow } from './second-factor.repository.js';
import { newTotpSecret, qrCodeSvg, stepOfCode, asAppCode, totpLink } from './totp.js';

/**
 * Who is setting up a factor: a signed-in staff member, or one half signed in whose role must
 * have a factor (`challengeId`: their sign-in, which the enrolment completes).
 */
export interface EnrollingMember {
  userId: string;
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
  const { repository, checks, sessions, passkeys, clock, requiredRoles } = deps;

  /** The member, and their half-signed-in state when they are in it (still live). */
  async function memberOf(member: EnrollingMember) {
    const user = await checks.staffMember(member.userId);
    const challenge = member.challengeId ? await repository.challengeById(member.challengeId) : undefined;
    if (member.challengeId && !challenge) throw new AppError('MFA_SIGN_IN_EXPIRED');
    return { user, challenge };
  }

  /**
   * What completing a factor's set-up gives: new recovery codes (always with an app; with a
   * passkey when the member has none left), and the session when it completes a sign-in.
   */
  async function completed(
    user: UserRow,
    challenge: Awaited<ReturnType<typeof memberOf>>['challenge'],
    freshCodes: boolean,
  ): Promise<Completed> {
    let recoveryCodes: string[] = [];
    if (freshCodes || (await repository.recoveryCodesLeft(user.id)) === 0) {
      const codes = await newRecoveryCodes();
      await repository.replaceRecoveryCodes(user.id, codes.kept, clock.now());
      recoveryCodes = codes.shown;
    }
    if (!challenge) return { recoveryCodes, session: null };
    await checks.spendChallenge(challenge);
    return { recoveryCodes, session: await sessions.newSession(user) };
  }

  /**
   * Refuses removing the last factor of a member whose role must have one. `keys`: the member's
   * passkeys, as the caller read them.
   */
  async function keepOneFactor(
    user: UserRow,
    keys: PasskeyRow[],
    leaving: { totp?: boolean; passkeyId?: string },
  ): Promise<void> {
    const totpLeft = !leaving.totp && Boolean((await repository.findTotp(user.id))?.confirmedAt);
    const keysLeft = keys.filter((key) => key.id !== leaving.passkeyId).length;
    if (!totpLeft && keysLeft === 0) {
      if (factorRequired(user.role, requiredRoles)) throw new AppError('MFA_FACTOR_REQUIRED');
      // No factor left: the recovery codes stand for nothing any more.
      await repository.replaceRecoveryCodes(user.id, [], clock.now());
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
      const { user, challenge } = await memberOf(member);
      const totp = await repository.findTotp(user.id);
      if (!totp) throw new AppError('MFA_NOT_ENROLLED');
      if (totp.confirmedAt) throw new AppError('MFA_ALREADY_ENROLLED');
      await checks.counted(user.id, async () => {
        const code = asAppCode(typed);
        const step = code ? await stepOfCode(totp.secret, code, clock.now()) : null;
        if (step === null) throw new AppError('MFA_CODE_INCORRECT');
        // Another confirmation (or a new secret) came first.
        if (!(await repository.confirmTotp(user.id, totp.secret, step, clock.now()))) {
          throw new AppError('MFA_ALREADY_ENROLLED');
        }
      });
      const done = await completed(user, challenge, true);
      return { body: toEnrolled(done), session: done.session };
    },

    /** Removes the app, with one of its current codes. */
    async removeTotp(userId: string, code: string): Promise<void> {
      const user = await checks.staffMember(userId);
      const totp = await repository.findTotp(user.id);
      if (!totp?.confirmedAt) throw new AppError('MFA_NOT_ENROLLED');
      await checks.counted(user.id, () => checks.spendAppCode(user.id, code));
      await keepOneFactor(user, await repository.listPasskeys(user.id), { totp: true });
      await repository.removeTotp(user.id);
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
      if (!challenge) await checks.spendChallenge(ceremony);
      const key = await repository.addPasskey({ ...made, userId: user.id, name, createdAt: clock.now() });
      const done = await completed(user, challenge, false);
      return { body: { ...toEnrolled(done), passkey: passkeyOf(key) }, session: done.session };
    },

    async removePasskey(userId: string, passkeyId: string): Promise<void> {
      const user = await checks.staffMember(userId);
      const keys = await repository.listPasskeys(user.id);
      if (!keys.some((key) => key.id === passkeyId)) throw new AppError('NOT_FOUND');
      auditTarget('passkey', passkeyId);
      await keepOneFactor(user, keys, { passkeyId });
      await repository.removePasskey(user.id, passkeyId);
    },
  };
}

export type SecondFactorEnrolment = ReturnType<typeof createSecondFactorEnrolment>;
