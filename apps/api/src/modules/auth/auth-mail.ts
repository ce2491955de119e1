import type { Mailer, MailMessage } from '../../lib/mailer.js';

/** Who an account email greets and where it goes. */
interface Recipient {
  email: string;
  firstName: string;
}

/** The account emails, sent after the request they belong to was answered. */
export function createAuthMail(deps: { mailer: Mailer; log?: { error(obj: unknown, msg: string): void } }) {
  /** Mail being sent after its request was answered; `settle` waits for it. */
  const pendingMail = new Set<Promise<void>>();

  function sendLater(message: MailMessage, what: string): void {
    // A mail failure is logged, not answered: the answer must not tell which addresses exist.
    const sending: Promise<void> = deps.mailer
      .send(message)
      .catch((error: unknown) => deps.log?.error({ err: error }, `${what} email failed`))
      .finally(() => pendingMail.delete(sending));
    pendingMail.add(sending);
  }

  return {
    /** Tells the old address that an account's email changed (sent after the answer). */
    notifyEmailChanged(user: { firstName: string }, oldEmail: string, newEmail: string): void {
      sendLater(
        {
          to: oldEmail,
          subject: 'Your Patient Simulation Platform email address was changed',
          text:
            `Hello ${user.firstName},\n\nThe email address of your Patient Simulation Platform account was changed ` +
            `from ${oldEmail} to ${newEmail}, and its sessions were ended.\n\nIf you did not expect this, ` +
            `please contact your programme administrator.`,
        },
        'email change notice',
      );
    },

    /** Tells a staff member that a superadmin cleared their second factors. */
    notifySecondFactorReset(member: Recipient): void {
      sendLater(
        {
          to: member.email,
          subject: 'Your Patient Simulation Platform second factor was reset',
          text:
            `Hello ${member.firstName},\n\nA provider administrator removed the authenticator app, passkeys and ` +
            `recovery codes of your Patient Simulation Platform account. At your next sign-in you may be asked ` +
            `to set up a second factor again.\n\nIf you did not ask for this, please contact your programme ` +
            `administrator at once.`,
        },
        'second factor reset notice',
      );
    },

    sendSignInLink(participant: Recipient, link: string, linkTtlDays: number): void {
      sendLater(
        {
          to: participant.email,
          subject: 'Your Patient Simulation Platform sign-in link',
          text:
            `Hello ${participant.firstName},\n\nOpen your case dashboard with this link. It signs you in once, ` +
            `within ${linkTtlDays} days:\n\n${link}\n\nIf you did not ask for it, you can ignore this email.`,
        },
        'sign-in link',
      );
    },

    sendPasswordLink(participant: Recipient, link: string, codeTtlMinutes: number): void {
      sendLater(
        {
          to: participant.email,
          subject: 'Set your Patient Simulation Platform password',
          text:
            `Hello ${participant.firstName},\n\nSet a new password for your Patient Simulation Platform account with ` +
            `this link. It works once, within ${codeTtlMinutes} minutes:\n\n${link}\n\n` +
            `If you did not ask for it, you can ignore this email: your password stays as it is.`,
        },
        'password link',
      );
    },

    /** Tells an account's owner that it was locked after failed sign-ins, with the link that unlocks it. */
    sendUnlockLink(owner: Recipient, link: string, linkTtlHours: number): void {
      sendLater(
        {
          to: owner.email,
          subject: 'Your Patient Simulation Platform account was locked',
          text:
            `Hello ${owner.firstName},\n\nThere were too many failed attempts to sign in to your Patient Simulation ` +
            `Platform account, so it is locked. Unlock it with this link; it works once, within ${linkTtlHours} ` +
            `hours:\n\n${link}\n\nIf the failed attempts were not yours, someone may be trying to guess your ` +
            `password: consider choosing a new one, and tell your programme administrator.`,
        },
        'unlock link',
      );
    },

    /** Waits for the mail still being sent (the app waits for it when it closes). */
    async settle(): Promise<void> {
      while (pendingMail.size > 0) await Promise.allSettled([...pendingMail]);
    },
  };
}

export type AuthMail = ReturnType<typeof createAuthMail>;
