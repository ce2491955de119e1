import type { Caller, World, WorldRequest } from '../world.js';

export type Expectation = Record<Caller, number>;

export interface MatrixRow {
  expect: Expectation;
  /** The request, made anew for each caller (calls that use up their target get a fresh one). */
  request: (w: World, caller: Caller) => WorldRequest | Promise<WorldRequest>;
}

/* ---------- what each kind of route answers ---------- */

/** Client A's record: its administrator and the superadmin may; client B's is told 404. */
export const owned = (ok: number, superadmin = ok): Expectation => ({
  anonymous: 401,
  participant: 403,
  testUser: 403,
  otherAdmin: 404,
  ownerAdmin: ok,
  superadmin,
  halfSignedIn: 401,
});
/** Any staff member, each seeing their own (lists are scoped to the caller's client). */
export const staff = (ok: number): Expectation => ({
  anonymous: 401,
  participant: 403,
  testUser: 403,
  otherAdmin: ok,
  ownerAdmin: ok,
  superadmin: ok,
  halfSignedIn: 401,
});
/** Provider staff only. */
export const superadmin = (ok: number): Expectation => ({
  anonymous: 401,
  participant: 403,
  testUser: 403,
  otherAdmin: 403,
  ownerAdmin: 403,
  superadmin: ok,
  halfSignedIn: 401,
});
/** Participants (a clinician and a test user), each on their own case. */
export const participant = (ok: number): Expectation => ({
  anonymous: 401,
  participant: ok,
  testUser: ok,
  otherAdmin: 403,
  ownerAdmin: 403,
  superadmin: 403,
  halfSignedIn: 401,
});
/** Staff as for client A's records, and the participant the record is (the test user is someone else). */
export const self = (ok: number): Expectation => ({ ...owned(ok), participant: ok, testUser: 404 });
/** Anyone, signed in or not. */
export const anyone = (status: number): Expectation => ({
  anonymous: status,
  participant: status,
  testUser: status,
  otherAdmin: status,
  ownerAdmin: status,
  superadmin: status,
  halfSignedIn: status,
});
/**
 * A staff member's own second factor: any staff member, and one half signed in who must set
 * one up (the only calls that take that token; every other route refuses it, 401).
 */
export const enrolment = (ok: number): Expectation => ({ ...staff(ok), halfSignedIn: ok });
