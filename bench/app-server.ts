import { spawn, type ChildProcess } from 'node:child_process';
import { openSync } from 'node:fs';
import path from 'node:path';
import { waitForHealth } from './server-waits.js';

/**
 * Starts the built server (apps/api/dist/main.js) as the bench measures it and waits for its
 * health call. `env` adds to or overrides the bench's settings (a second server of the same
 * database with the statistics cache off, say: on PostgreSQL several processes share one
 * database, and one DATA_DIR shares the session secret, so one sign-in serves both).
 */
export async function startAppServer(options: {
  root: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  env?: Record<string, string>;
}): Promise<ChildProcess> {
  const { root, port, dataDir, databaseUrl } = options;
  // BENCH_SERVER_NODE_FLAGS (for example `--trace-gc`) goes to the server's node only, and
  // BENCH_SERVER_STDOUT keeps what the server prints (otherwise dropped), to look inside a run.
  const serverFlags = process.env.BENCH_SERVER_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? [];
  const serverOut = process.env.BENCH_SERVER_STDOUT ? openSync(process.env.BENCH_SERVER_STDOUT, 'w') : 'ignore';
  const server = spawn('node', [...serverFlags, path.join(root, 'apps/api/dist/main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      LOGIN_MAX_FAILURES: '1000',
      // Its participants sign in from this one address by the hundred.
      ANONYMOUS_CALLS_PER_MINUTE: '1000000',
      ANONYMOUS_CALLS_PER_MINUTE_TOTAL: '1000000',
      // The bench signs its superadmin in with a password alone.
      MFA_REQUIRED_ROLES: '',
      // The server's email schedule runs once as it starts, not again while calls are
      // measured (it would queue the imported participants' emails and, with no
      // SMTP_URL, mark them UNSENT meanwhile); the emails scenario measures it alone.
      SCHEDULER_INTERVAL_SECONDS: String(24 * 3600),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...options.env,
    },
    stdio: ['ignore', serverOut, 'inherit'],
  });
  try {
    await waitForHealth(`http://127.0.0.1:${port}`);
  } catch (error) {
    server.kill('SIGTERM');
    throw error;
  }
  return server;
}
