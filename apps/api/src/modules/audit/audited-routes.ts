import * as contract from '@pss/contract';
import type { RouteDefinition } from '@pss/contract';

/**
 * Which calls the audit trail records, and under what name: one place, read by the call
 * recorder (every event's `action`) and by the route matrix's test (every call it makes of a
 * recorded route must leave exactly one event).
 */

/** Each table of the contract's routes and the prefix its routes' names take (`cases.update`). */
const tablePrefixes: Record<string, string> = {
  attemptRoutes: 'attempts',
  auditRoutes: 'audit',
  authRoutes: 'auth',
  caseRoutes: 'cases',
  certificateRoutes: 'certificates',
  clientRoutes: 'clients',
  cmeRoutes: 'cmes',
  diseaseTypeRoutes: 'diseaseTypes',
  emailDeliveryRoutes: 'emailDeliveries',
  emailRoutes: 'emails',
  emailSendingRoutes: 'emailSending',
  emailUnsubscribeRoutes: 'emailUnsubscribe',
  emailSuppressionRoutes: 'emailSuppressions',
  moduleElementRoutes: 'moduleElements',
  moduleLibraryRoutes: 'moduleLibrary',
  operationsRoutes: 'operations',
  participantLinkRoutes: 'participantLinks',
  participantRoutes: 'participants',
  projectElementRoutes: 'projectElements',
  projectRoutes: 'projects',
  questionCategoryRoutes: 'questionCategories',
  reportRoutes: 'reports',
  resourceRoutes: 'resources',
  seasonSummaryRoutes: 'seasonSummaries',
  // Second-factor calls count attempts that must stand whatever their outcome, as sign-ins do.
  secondFactorRoutes: 'auth',
  serviceRoutes: 'service',
  statisticsRoutes: 'statistics',
  surveyRoutes: 'surveys',
  userRoutes: 'users',
};

const names = new Map<RouteDefinition, string>();
for (const [tableName, table] of Object.entries(contract)) {
  if (!tableName.endsWith('Routes') || typeof table !== 'object' || table === null) continue;
  const prefix = tablePrefixes[tableName];
  if (!prefix) throw new Error(`audited-routes.ts: name a prefix for the contract's ${tableName}`);
  for (const [key, definition] of Object.entries(table as Record<string, RouteDefinition>)) {
    // A route declared once and taken into a table (the first screens') keeps its table's name.
    if (!names.has(definition)) names.set(definition, `${prefix}.${key}`);
  }
}

/**
 * The route's name in the audit trail (`cases.update`); null for a route outside the
 * contract's tables (a test's own), which is not recorded — the route matrix refuses an API
 * route that changes state and has none.
 */
export function routeName(definition: RouteDefinition): string | null {
  return names.get(definition) ?? null;
}

/**
 * Calls that change nothing though they are not GETs: they work out an answer from what they
 * are sent (an email's preview, the fields of an RTF file).
 */
const readOnlyCalls = new Set(['emailSending.preview', 'cases.readRtf']);

/** Downloads that carry no one's personal data: an import's example file. */
const impersonalDownloads = new Set(['participants.importExample']);

/** A report or export: a GET answering a CSV or XLSX file (who took personal data away). */
function isDataDownload(definition: RouteDefinition): boolean {
  const types = [definition.produces ?? []].flat();
  return types.some((type) => type.startsWith('text/csv') || type.includes('spreadsheetml'));
}

/**
 * What the trail records of a call: `change` — it changes state (every call but a GET, and the
 * read-only ones above), recorded in the change's own transaction; `download` — it takes
 * personal data away; null — a read, not recorded (a session's refresh continues a sign-in
 * that is).
 */
export type AuditKind = 'change' | 'download' | null;

export function auditKindOf(definition: RouteDefinition): AuditKind {
  const name = routeName(definition);
  if (name === null) return null;
  if (definition.method !== 'GET') return readOnlyCalls.has(name) ? null : 'change';
  return isDataDownload(definition) && !impersonalDownloads.has(name) ? 'download' : null;
}

/**
 * Calls on a hot path whose service writes the event in the statement of its change itself
 * (`takeCallEvent`): a participant's answer, saved many times a second in one prepared
 * statement, would otherwise take a transaction and three more round trips.
 */
export const statementRecordedCalls = new Set(['attempts.answer']);

/** Sign-in calls: a refusal is recorded too (who tried, and why they were refused). */
export const signInCalls = new Set([
  'auth.loginSuperadmin',
  'auth.loginAdmin',
  'auth.loginStaff',
  'auth.loginSuperfake',
  'auth.oidcCallback',
  'auth.loginParticipant',
  'auth.loginByLink',
  'auth.setPasswordWithCode',
  'auth.unlock',
  'auth.changeParticipantPassword',
  'auth.mfaVerify',
  'auth.mfaPasskeyVerify',
]);

const byPlace = new Map([...names.keys()].map((definition) => [`${definition.method} ${definition.path}`, definition]));

/** The contract's route at a method and path (`POST /cases`, relative to the API's prefix). */
export function definitionAt(method: string, path: string): RouteDefinition | undefined {
  return byPlace.get(`${method} ${path}`);
}
