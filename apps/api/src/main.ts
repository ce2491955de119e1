import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { buildApp } from './app.js';
import { runFirstStart } from './bootstrap/first-start.js';

/** Reads config, opens and migrates the database, runs first start, then listens. */
async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDataDir: path.join(config.dataDir, 'pglite'),
  });
  await database.migrate();
  const app = await buildApp({ config, database });
  const firstStart = await runFirstStart(database.db, { superadmin: config.superadmin });

  // A job left RUNNING by a process that died ends in ERROR; the worker runs imports.
  await app.imports.failAbandoned();
  const stopWorker = app.imports.startWorker();

  let closing = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Stop taking requests, let running ones finish, then close the database.
    const forceExit = setTimeout(() => process.exit(1), 10_000);
    forceExit.unref();
    try {
      await app.close();
      await stopWorker();
      await database.close();
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
  if (firstStart.kind === 'superadmin-created') {
    lines.push(`  created superadmin ${firstStart.email} (from SUPERADMIN_EMAIL)`);
  }
  if (firstStart.kind === 'demo-created') {
    lines.push('', '  Demo data was created. Sign in at ' + `${url}/login-landing with:`);
    for (const s of firstStart.signIns) lines.push(`    ${s.label}: ${s.email} / ${s.password}`);
    lines.push('  (printed once; also kept in DATA_DIR/demo-sign-ins.txt)');
    if (database.kind === 'pglite') {
      writeFileSync(
        path.join(config.dataDir, 'demo-sign-ins.txt'),
        firstStart.signIns.map((s) => `${s.label}: ${s.email} / ${s.password}`).join('\n') + '\n',
        { mode: 0o600 },
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
