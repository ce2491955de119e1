import { isStaffUserRole, staffUserRoles, type UserRole } from '@pss/contract';
import { AppError } from '../../lib/errors.js';
import type { Clock } from '../../lib/clock.js';
import type { TokenService } from '../../lib/tokens.js';
import type { Mailer } from '../../lib/mailer.js';
import type { UserRow, UsersService } from '../users/users.service.js';
import { createAuthMail } from './auth-mail.js';
import { createAuthSessions, type IssuedSession } from './auth-sessions.js';
import type { AuthSettings } from './auth-settings.js';
import { createParticipantPasswords } from './participant-passwords.js';
import { createParticipantSignIn } from './participant-sign-in.js';
import { accountKey, createSignInChecks } from './sign-in-checks.js';
import { createAccountLocks } from './account-locks.js';
import { createAccountLocksRepository } from './account-locks.repository.js';
import type { SystemRecorder } from '../audit/call-recorder.service.js';
import { createSessionsRepository, type SessionsRepository } from './sessions.repository.js';
import { createPasskeys } from './second-factor/passkeys.js';
import { createSecondFactorChecks } from './second-factor/second-factor-checks.js';
import { createSecondFactorEnrolment } from './second-factor/second-factor-enrolment.js';
import { createSecondFactorRepository } from './second-factor/second-factor.repository.js';
import { createSecondFactorSignIn, type StaffSignInStep } from './second-factor/second-factor-sign-in.js';
import { createMemberLock } from './second-factor/member-lock.js';
import type { Db } from '../../db/client.js';
import { afterCommit } from '../../db/unit-of-work.js';
import { auditActor, auditChanges } from '../audit/audit-scope.service.js';

export type { AuthSettings } from './auth-settings.js';
export { REFRESH_GRACE_SECONDS, type IssuedSession, type SessionKind } from './auth-sessions.js';
export { LINK_REQUESTS_PER_EMAIL } from './sign-in-checks.js';
export type { StaffSignInStep } from './second-factor/second-factor-sign-in.js';
export type { EnrollingMember, SignedInMember } from './second-factor/second-factor-enrolment.js';

/** Which staff accounts a sign-in call accepts. */
export type StaffLoginKind = 'superadmin' | 'admin' | 'staff';

const acceptedRoles: Record<StaffLoginKind, readonly UserRole[]> = {
  superadmin: ['SUPERADMIN'],
  admin: ['ADMIN'],
  staff: staffUserRoles,
};

/**
 * Signing in and out, for staff and participants: the staff's sign-ins are here; sessions
 * (auth-sessions.ts), rate limits and the password check (sign-in-checks.ts), participants'
 * sign-ins (participant-sign-in.ts) and passwords (participant-passwords.ts) and the account
 * emails (auth-mail.ts) are in their own modules.
 */
export function createAuthService(deps: {
  users: Pick<UsersService, 'findByEmail' | 'findById' | 'findFirstByRole' | 'setParticipantPassword'>;
  sessions: SessionsRepository;
  /** Where the second factors are kept (the services' handle: a reset is written in its call's transaction). */
  db: Db;
  tokens: TokenService;
  clock: Clock;
  mailer: Mailer;
  settings: AuthSettings;
  log?: { error(obj: unknown, msg: string): void };
  /** Records an account's lock as the app's own event (account-locks.ts). */
  audit?: SystemRecorder;
}) {
  const { users, sessions, tokens, clock, settings } = deps;
  const mail = createAuthMail({ mailer: deps.mailer, log: deps.log });
  const authSessions = createAuthSessions({ users, sessions, tokens, clock, settings });
  const locks = createAccountLocks({
    repository: createAccountLocksRepository(deps.db),
    users,
    clearFailures: (email) => sessions.clearFailures(accountKey(email)),
    clock,
    settings,
    mail,
    audit: deps.audit,
  });
  const checks = createSignInChecks({ users, sessions, clock, settings, locks });
  const participantSignIn = createParticipantSignIn({
    users,
    sessions,
    tokens,
    clock,
    settings,
    authSessions,
    checks,
    mail,
  });
  const participantPasswords = createParticipantPasswords({ users, sessions, clock, settings, checks, mail });
  const factorRepository = createSecondFactorRepository(deps.db);
  const factorChecks = createSecondFactorChecks({ repository: factorRepository, users, checks, clock });
  // A change of factors ends sessions, and a sign-in's last step makes one, in the lock's transaction.
  const lock = createMemberLock({
    db: deps.db,
    sessionsIn: (executor) =>
      createAuthSessions({ users, sessions: createSessionsRepository(executor), tokens, clock, settings }),
    clock,
  });
  const factorDeps = {
    repository: factorRepository,
    checks: factorChecks,
    lock,
    passkeys: createPasskeys(settings.passkeys),
    clock,
    requiredRoles: settings.mfaRequiredRoles,
  };
  const secondFactorSignIn = createSecondFactorSignIn({
    ...factorDeps,
    adminPasswordLogin: settings.adminPasswordLogin,
  });
  const enrolment = createSecondFactorEnrolment(factorDeps);

  return {
    /**
     * Signs a staff member in. A wrong password, an unknown email and an account of
     * another kind all get the same INCORRECT_PASSWORD, after the same amount of work. A right
     * one signs in, or asks for the member's second factor, or takes them to set one up.
     */
    async login(kind: StaffLoginKind, email: string, password: string, address: string): Promise<StaffSignInStep> {
      // The client administrators' call is closed to everyone alike; the staff call says so
      // only after the right password, so that it tells no stranger which accounts are administrators.
      if (kind === 'admin' && !settings.adminPasswordLogin) throw new AppError('PASSWORD_LOGIN_DISABLED');
      const user = await checks.checkPassword(email, password, address, (u) => acceptedRoles[kind].includes(u.role), {
        // A locked account lets in a right password only on to a second factor.
        hasFactor: async (u) => {
          const factors = await factorRepository.factorsOf(u.id);
          return factors.totp || factors.passkeys > 0;
        },
      });
      // The password was right: each step from here on (a second factor asked, an enrolment) is theirs.
      auditActor({ id: user.id, email: user.email, role: user.role, clientId: user.clientId });
      if (user.role === 'ADMIN' && !settings.adminPasswordLogin) throw new AppError('PASSWORD_LOGIN_DISABLED');
      return secondFactorSignIn.afterPassword(user);
    },

    /**
     * Signs in a staff member whom the identity provider vouched for (modules/auth/oidc):
     * the same session as a password sign-in gives.
     */
    async loginVouched(user: UserRow): Promise<IssuedSession> {
      if (!isStaffUserRole(user.role)) throw new AppError('NOT_AUTHORIZED');
      return authSessions.newSession(user);
    },

    /** Development only: signs in as the first superadmin without a password. */
    async loginSuperfake(): Promise<IssuedSession> {
      const user = await users.findFirstByRole('SUPERADMIN');
      if (!user) throw new AppError('USER_NOT_FOUND');
      return authSessions.newSession(user);
    },

    verifySecondFactor: secondFactorSignIn.verifyCode,
    passkeySignInOptions: secondFactorSignIn.passkeyOptions,
    passkeySignIn: secondFactorSignIn.passkeySignIn,
    secondFactors: enrolment,

    /**
     * A superadmin clears a staff member's second factors, and with them every session and
     * half-finished sign-in of theirs; the member is told by email once the reset has
     * committed. A participant has none to clear (USER_NOT_FOUND).
     */
    async resetSecondFactors(userId: string): Promise<void> {
      const user = await users.findById(userId);
      if (!user || !isStaffUserRole(user.role)) throw new AppError('USER_NOT_FOUND');
      const factors = await factorRepository.factorsOf(user.id);
      await lock.changeFactors({ user, keepSessionId: null, completesStep: null }, (rows) =>
        rows.resetFactors(user.id),
      );
      auditChanges(
        { authenticator_app: factors.totp, passkeys: factors.passkeys },
        { authenticator_app: false, passkeys: 0 },
      );
      afterCommit(() => mail.notifySecondFactorReset(user));
    },

    /** Unlocks an account locked by failed sign-ins, with its emailed link (account-locks.ts). */
    unlock: locks.unlock,

    refresh: authSessions.refresh,
    refreshParticipant: authSessions.refreshParticipant,
    endOtherSessions: authSessions.endOtherSessions,
    logout: authSessions.logout,

    loginParticipant: participantSignIn.loginParticipant,
    loginByLink: participantSignIn.loginByLink,
    dashboardLink: participantSignIn.dashboardLink,
    sendSignInLink: participantSignIn.sendSignInLink,

    changeParticipantPassword: participantPasswords.changeParticipantPassword,
    sendPasswordCode: participantPasswords.sendPasswordCode,
    setPasswordWithCode: participantPasswords.setPasswordWithCode,

    notifyEmailChanged: mail.notifyEmailChanged,
    settle: mail.settle,
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
