import path from 'node:path';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase, type Db } from './db/client.js';
import { createTokenService } from './lib/tokens.js';
import { createUsersRepository } from './modules/users/users.repository.js';
import { buildApp } from './app.js';
import { keySealedTheChain } from './modules/audit/audit-verify.js';
import { keepDemoSignIns, runFirstStart } from './bootstrap/first-start.js';
import { openFileStorage } from './lib/open-file-storage.js';
import { demoParticipantLinks } from '../demo/demo-participants.js';

/** A demo clinician's dashboard link, so a newcomer can see the participants' side too. */
async function demoParticipantLink(db: Db, config: Config, url: string, email: string): Promise<string | null> {
  const user = await createUsersRepository(db).findByEmail(email);
  if (!user) return null;
  const tokens = createTokenService(config.sessionSecret, config.accessTokenTtlSeconds);
  return `${url}/participant/link/${await tokens.signLinkToken(user.id, new Date(), config.linkTtlDays)}`;
}

/** Reads config, opens and migrates the database, runs first start, then listens. */
async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    databaseOwnerUrl: config.databaseOwnerUrl,
    pgliteDataDir: path.join(config.dataDir, 'pglite'),
  });
  await database.migrate();
  const trail = await database.trailProtection();
  const storage = openFileStorage(config.storage);
  const app = await buildApp({ config, database, storage });
  if (!trail.protected) app.log.warn({ audit_trail: trail }, 'audit trail: not protected from the database role');
  if ((await keySealedTheChain(database.db, config.auditSigningKey)) === false) {
    app.log.error(
      'audit trail: AUDIT_SIGNING_KEY is not the key that sealed the newest link; every process must share one key',
    );
  }
  const firstStart = await runFirstStart(database.db, { superadmin: config.superadmin, storage });

  // Jobs are claimed in the database, so any number of processes may run these workers: a
  // job left by a process that died is taken up again when its lease runs out.
  const stopWorker = app.imports.startWorker();
  // The email schedule and the outbox's sender (keys and claims keep every email to one message).
  const stopEmails = app.emails.startWorker();
  // Thumbnails and media facts of uploaded resources (claimed per file).
  const stopResources = app.resources.startWorker();

  let closing = false;
  /**
   * SIGTERM: no failed request and no half-done job step. The process first says it is not
   * ready (a balancer polling /api/health/ready takes it out of rotation) while it keeps
   * serving for SHUTDOWN_DRAIN_SECONDS; the workers stop taking work at once and finish the
   * job they hold. Then it stops accepting connections, answers the requests it has, closes
   * the database and exits. Past SHUTDOWN_TIMEOUT_SECONDS it exits anyway: a job cut short is
   * taken up by another process when its lease runs out.
   */
  const shutdown = async (signal: string): Promise<void> => {
    if (closing) return;
    closing = true;
    app.log.info({ signal, drainSeconds: config.shutdownDrainSeconds }, 'shutting down');
    const forceExit = setTimeout(() => {
      app.log.error('shutdown timed out; exiting with work unfinished');
      process.exit(1);
    }, config.shutdownTimeoutSeconds * 1000);
    forceExit.unref();
    try {
      app.startDraining();
      const workersStopped = Promise.all([stopWorker(), stopEmails(), stopResources()]);
      await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainSeconds * 1000));
      await app.close();
      await workersStopped;
      await database.close();
      app.log.info('shut down cleanly');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://localhost:${port}`;

  const lines = ['', `Patient Simulation Platform is running at ${url}`];
  lines.push(
    `  database: ${database.kind === 'pglite' ? `embedded PGlite in ${path.join(config.dataDir, 'pglite')}` : 'PostgreSQL (DATABASE_URL)'}`,
  );
  lines.push(`  API docs: ${url}/api/docs`);
  lines.push(`  audit trail: ${trail.protected ? 'protected' : 'not protected'} — ${trail.detail}`);
  if (firstStart.kind === 'superadmin-created') {
    lines.push(`  created superadmin ${firstStart.email} (from SUPERADMIN_EMAIL)`);
  }
  if (firstStart.kind === 'demo-created') {
    const signInLines = firstStart.signIns.map((s) => `${s.label}: ${s.email} / ${s.password}`);
    for (const { label, email } of demoParticipantLinks) {
      const link = await demoParticipantLink(database.db, config, url, email);
      if (link) signInLines.push(`${label} (${email}) dashboard link: ${link}`);
    }
    lines.push('', '  Demo data was created. Sign in at ' + `${url}/login-landing with:`);
    for (const line of signInLines) lines.push(`    ${line}`);
    // Whichever the database: the file holds passwords, so its mode is 0600.
    const kept = keepDemoSignIns(config.dataDir, signInLines);
    lines.push(`  (printed once; also kept in ${kept}, readable by this server's user alone)`);
    if (config.mfaRequiredRoles.length > 0) {
      const roles = config.mfaRequiredRoles.map((role) => role.toLowerCase()).join(', ');
      lines.push(
        `  Staff of the roles in MFA_REQUIRED_ROLES (${roles}) set up a second factor at their first sign-in:`,
        '  scan its QR code with an authenticator app, or get the code of its key with `npm run totp -- <key>`.',
      );
    }
  }
  console.log(lines.join('\n') + '\n');
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error('Failed to start:', error);
  }
  process.exit(1);
});
