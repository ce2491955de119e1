/**
 * The API tests that run on both engines when `npm test` has a PostgreSQL server: what the
 * embedded engine (PGlite, one connection, in the process) and a server (many connections,
 * other processes) can do differently. Every other API test runs once, on PostgreSQL, where
 * it takes half the time; without a server, every API test runs on PGlite.
 *
 * What belongs here: transactions and locks (the audit chain's seal, claims and leases,
 * rollbacks), migrations and first start, the kept counts, search, imports, backups, the
 * database's roles and lost connections. A test of a new such thing is added here; the
 * tools test `tools/test-tiers/engine-sensitive.test.ts` checks every line still names a file.
 */
export const engineSensitiveTests = [
  // Migrations, first start, the demo's seeds, backups, the real process
  'src/bootstrap/*.test.ts',
  'demo/*.test.ts',
  'test/main-process.test.ts',
  'test/backup.test.ts',
  // The database's roles, lost connections, processes sharing one database
  'src/db/*.test.ts',
  'test/connection-faults.test.ts',
  'test/multi-process.test.ts',
  'test/email-processes.test.ts',
  'test/cross-process-caches.test.ts',
  // Transactions and locks: the audit chain's seal, rollbacks, claims and leases
  'src/modules/audit/audit-chain.test.ts',
  'src/modules/audit/audit-tampering.test.ts',
  'src/modules/audit/call-recording.test.ts',
  'src/modules/clinician/attempts-consistency.test.ts',
  'src/modules/cases/cases-not-saved.test.ts',
  'src/modules/emails/email-outbox-claim.test.ts',
  'src/modules/emails/email-sender-in-flight.test.ts',
  'src/modules/emails/email-unsent-requeue.test.ts',
  // The kept counts
  'src/modules/statistics/kept-counts.test.ts',
  'src/counts-cli.test.ts',
  // Search
  'src/modules/participants/participants-search.test.ts',
  // Imports
  'src/modules/imports/*.test.ts',
  'src/modules/participants/participant-import-batches.test.ts',
  'src/modules/clients/cap-import.test.ts',
  'src/modules/elements/elements-import*.test.ts',
  // Hostile text as each engine's parser meets it
  'test/hostile-input.test.ts',
];
