import { randomUUID } from 'node:crypto';
import { createSecondFactorRepository } from '../../src/modules/auth/second-factor/second-factor.repository.js';
import { appAwaitingCode, appSetUp, halfSignedInToken } from '../second-factor-kit.js';
import { softwarePasskey } from '../software-passkey.js';
import { createUser } from '../test-app.js';
import type { Caller, World } from '../world.js';
import { anyone, enrolment, staff, superadmin, type MatrixRow } from './expectations.js';
import { del, get, post } from './requests.js';

/**
 * A staff member's second factor. Each request sets up the state its call needs for the
 * caller (an app awaiting its first code, an app set up, a passkey) directly in the database,
 * so that every caller is asked about their own factor whatever ran before.
 */

/** The account a caller's second-factor calls are about: a staff member's, or the half-signed-in one's. */
function memberOf(w: World, caller: Caller) {
  const staffCallers: Caller[] = ['otherAdmin', 'ownerAdmin', 'superadmin', 'halfSignedIn'];
  return staffCallers.includes(caller) ? w.users[caller as 'superadmin'] : null;
}

const now = (w: World) => w.ctx.clock.now();
const passkeyOf = (w: World) => softwarePasskey(w.ctx.config.passkeys.rpId, w.ctx.config.passkeys.origins[0]!);

/** A passkey in software, kept as the member's as a registration would keep it. */
async function passkeyKeptFor(w: World, userId: string) {
  const key = passkeyOf(w);
  const row = await createSecondFactorRepository(w.ctx.db).addPasskey({
    userId,
    credentialId: key.credentialId,
    publicKey: key.publicKey,
    name: 'Matrix key',
    createdAt: now(w),
  });
  return { key, row };
}

/**
 * Enrolment opens only while a member has no factor at all: for the half-signed-in caller,
 * whatever an earlier row set up for them goes (with their steps: call before their token is made).
 */
async function noFactorYet(w: World, caller: Caller) {
  if (caller === 'halfSignedIn') await createSecondFactorRepository(w.ctx.db).resetFactors(w.users.halfSignedIn.id);
}

/** A new client administrator with an app set up, half signed in: their step's token and a code. */
async function signInHalfway(w: World) {
  const member = await createUser(w.ctx.db, { role: 'ADMIN', clientId: w.clientA.id });
  const code = await appSetUp(w.ctx.db, member.id, now(w));
  return { member, code, token: await halfSignedInToken(w.ctx.db, member.id, now(w), 'verify') };
}

export const secondFactorRows: Record<string, MatrixRow> = {
  'GET /api/auth/mfa': { expect: staff(200), request: () => get('/auth/mfa') },
  'POST /api/auth/mfa/totp/enroll': {
    expect: enrolment(200),
    request: async (w, caller) => {
      const member = memberOf(w, caller);
      await noFactorYet(w, caller);
      if (member) await createSecondFactorRepository(w.ctx.db).removeTotp(member.id);
      return post('/auth/mfa/totp/enroll');
    },
  },
  'POST /api/auth/mfa/totp/confirm': {
    expect: enrolment(200),
    request: async (w, caller) => {
      const member = memberOf(w, caller);
      await noFactorYet(w, caller);
      return post('/auth/mfa/totp/confirm', {
        code: member ? await appAwaitingCode(w.ctx.db, member.id, now(w)) : '123456',
      });
    },
  },
  'DELETE /api/auth/mfa/totp': {
    expect: staff(204),
    request: async (w, caller) => {
      const member = memberOf(w, caller);
      return {
        ...del('/auth/mfa/totp'),
        payload: { code: member ? await appSetUp(w.ctx.db, member.id, now(w)) : '123456' },
      };
    },
  },
  'POST /api/auth/mfa/recovery-codes': {
    expect: staff(200),
    request: async (w, caller) => {
      const member = memberOf(w, caller);
      return post('/auth/mfa/recovery-codes', {
        code: member ? await appSetUp(w.ctx.db, member.id, now(w)) : '123456',
      });
    },
  },
  // The sign-in's second step: public, a new member's step each time.
  'POST /api/auth/mfa/verify': {
    expect: anyone(200),
    request: async (w) => {
      const { token, code } = await signInHalfway(w);
      return post('/auth/mfa/verify', { mfa_token: token, code });
    },
  },
  'POST /api/auth/mfa/webauthn/register/options': {
    expect: enrolment(200),
    request: async (w, caller) => {
      await noFactorYet(w, caller);
      return post('/auth/mfa/webauthn/register/options');
    },
  },
  // Registering needs the browser's answer to options asked as the caller: made by a passkey in software.
  'POST /api/auth/mfa/webauthn/register': {
    expect: enrolment(200),
    request: async (w, caller) => {
      await noFactorYet(w, caller);
      const headers = await w.headersOf(caller);
      const options = await w.ctx.app.inject({
        method: 'POST',
        url: '/api/auth/mfa/webauthn/register/options',
        headers,
      });
      const challenge = options.statusCode === 200 ? options.json<{ challenge: string }>().challenge : 'none';
      return {
        ...post('/auth/mfa/webauthn/register', { name: 'Matrix key', response: passkeyOf(w).register({ challenge }) }),
        headers,
      };
    },
  },
  'DELETE /api/auth/mfa/webauthn/:id': {
    expect: staff(204),
    request: async (w, caller) => {
      const member = memberOf(w, caller);
      if (!member) return del(`/auth/mfa/webauthn/${randomUUID()}`);
      const { row } = await passkeyKeptFor(w, member.id);
      return del(`/auth/mfa/webauthn/${row.id}`);
    },
  },
  'POST /api/auth/mfa/webauthn/options': { expect: anyone(200), request: () => post('/auth/mfa/webauthn/options', {}) },
  'POST /api/auth/mfa/webauthn/verify': {
    expect: anyone(200),
    request: async (w) => {
      const { member, token } = await signInHalfway(w);
      const { key } = await passkeyKeptFor(w, member.id);
      const options = await w.ctx.app.inject({
        method: 'POST',
        url: '/api/auth/mfa/webauthn/options',
        payload: { mfa_token: token },
      });
      const asked = options.json<{ options: { challenge: string } }>().options;
      return post('/auth/mfa/webauthn/verify', { mfa_token: token, response: key.signIn(asked) });
    },
  },
  // A member of client A's of its own each time: a reset ends every session of the member.
  'POST /api/users/:id/mfa/reset': {
    expect: superadmin(204),
    request: async (w) => {
      const member = await createUser(w.ctx.db, { role: 'ADMIN', clientId: w.clientA.id });
      return post(`/users/${member.id}/mfa/reset`);
    },
  },
};
