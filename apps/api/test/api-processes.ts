import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/**
 * Real API server processes (the entry point as `npm start` runs it, from source through
 * tsx) for the tests of several processes on one PostgreSQL database. Each logs JSON lines
 * (LOG_LEVEL info unless said), which the tests read to see which process did what.
 */
const apiRoot = path.resolve(import.meta.dirname, '..');

/** The ports these tests listen on (3290-3299 unless MULTIPROC_TEST_PORT moves them). */
export const BASE_PORT = Number(process.env.MULTIPROC_TEST_PORT ?? 3290);

export interface ApiProcess {
  name: string;
  port: number;
  url: string;
  child: ChildProcess;
  /** The JSON log lines written so far. */
  logs(): Record<string, unknown>[];
  /** Called with every JSON log line as it arrives (synchronously: a test may kill the process at once). */
  onLog(listener: (line: Record<string, unknown>) => void): void;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export async function startApiProcess(options: {
  name: string;
  port: number;
  databaseUrl: string;
  dataDir: string;
  env?: Record<string, string>;
}): Promise<ApiProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: apiRoot,
    env: {
      ...process.env,
      DATABASE_URL: options.databaseUrl,
      DATA_DIR: options.dataDir,
      PORT: String(options.port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      // One secret for every process: a token one signs, another accepts (no sticky sessions).
      SESSION_SECRET: 'multi-process-test-secret-long-enough-for-hs256',
      // No demo data: the database holds what the test makes.
      SUPERADMIN_EMAIL: 'owner@multi.test',
      SUPERADMIN_PASSWORD: 'owner-password',
      SCHEDULE_TIME_ZONE: 'UTC',
      // The processes' tests sign the superadmin in with a password alone.
      MFA_REQUIRED_ROLES: '',
      ...options.env,
    },
  });
  let output = '';
  let partial = '';
  const lines: Record<string, unknown>[] = [];
  const listeners: ((line: Record<string, unknown>) => void)[] = [];
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk;
    partial += chunk;
    const complete = partial.split('\n');
    partial = complete.pop() ?? '';
    for (const text of complete) {
      if (!text.startsWith('{')) continue;
      const line = JSON.parse(text) as Record<string, unknown>;
      lines.push(line);
      for (const listener of listeners) listener(line);
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = `http://127.0.0.1:${options.port}`;
  const started: ApiProcess = {
    name: options.name,
    port: options.port,
    url,
    child,
    logs: () => lines,
    onLog: (listener) => listeners.push(listener),
    output: () => output,
    exited,
  };
  // Ready means migrated and answering: what a load balancer waits for.
  const deadline = Date.now() + 90_000;
  let gone = false;
  void exited.then(() => (gone = true));
  for (;;) {
    if (gone) throw new Error(`${options.name} exited before it was ready:\n${output}`);
    if (Date.now() > deadline) throw new Error(`${options.name} not ready within 90 s:\n${output}`);
    const ready = await fetch(`${url}/api/health/ready`).catch(() => null);
    if (ready?.status === 200) return started;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
