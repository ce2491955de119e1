import { auditRows } from './route-matrix/audit.js';
import { casesAndModuleLibrariesRows } from './route-matrix/cases-and-module-libraries.js';
import { emailsStatisticsParticipantsRows } from './route-matrix/emails-statistics-participants.js';
import { emailSendNowRows } from './route-matrix/email-send-now.js';
import { emailSuppressionsRows } from './route-matrix/email-suppressions.js';
import { emailUnsubscribeRows } from './route-matrix/email-unsubscribe.js';
import type { MatrixRow } from './route-matrix/expectations.js';
import { reportsClinicianSurveysRows } from './route-matrix/reports-clinician-surveys.js';
import { secondFactorRows } from './route-matrix/second-factor.js';
import { serviceAndSignInRows } from './route-matrix/service-and-sign-in.js';
import { summariesAndResourcesRows } from './route-matrix/summaries-and-resources.js';
import { usersClientsProjectsRows } from './route-matrix/users-clients-projects.js';

export type { Expectation, MatrixRow } from './route-matrix/expectations.js';

/**
 * The route matrix: for every route the API registers, what each kind of caller gets.
 * `route-matrix.test.ts` walks every route × caller against a populated database
 * (`world.ts`) and fails on any route without a row here, so a new route cannot be added
 * without saying who may call it and proving it.
 *
 * The owner is client A's administrator and every request names client A's records, so
 * client B's administrator ("otherAdmin") must be told 404 NOT_FOUND — never a 2xx and
 * never a hint that the record exists — unless the call is about the caller's own things
 * (lists, which must then show nothing of client A's).
 *
 * The rows are kept by area in route-matrix/*.ts (what each kind of route answers:
 * expectations.ts; request helpers: requests.ts) and put together here.
 */

/** The areas' rows in one table; a route in two areas is a mistake in the table. */
function oneTable(...areas: Record<string, MatrixRow>[]): Record<string, MatrixRow> {
  const table: Record<string, MatrixRow> = {};
  for (const area of areas) {
    for (const [route, row] of Object.entries(area)) {
      if (table[route]) throw new Error(`route matrix: ${route} has a row in two areas`);
      table[route] = row;
    }
  }
  return table;
}

export const routeMatrix: Record<string, MatrixRow> = oneTable(
  auditRows,
  serviceAndSignInRows,
  secondFactorRows,
  usersClientsProjectsRows,
  emailsStatisticsParticipantsRows,
  emailSendNowRows,
  emailSuppressionsRows,
  emailUnsubscribeRows,
  casesAndModuleLibrariesRows,
  reportsClinicianSurveysRows,
  summariesAndResourcesRows,
);
