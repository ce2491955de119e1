import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../apps/api/src/db/client.js';
import { captureStatements, type FloorRoute } from './floor.js';
import type { Scenario } from './scenarios.js';
import type { BenchFixture } from './seed.js';

/** The floor server of a run: where it answers, and which route is each scenario's floor. */
export interface Floors {
  base: string;
  /** Each scenario's floor route number. */
  indexOf: Map<string, number>;
  stop(): Promise<void>;
}

/**
 * Captures the SQL of each chosen scenario that has a floor (on a database opened here,
 * beside the running server) and starts the floor server on the port after the server's.
 */
export async function startFloors(
  databaseUrl: string,
  chosen: Scenario[],
  fixture: BenchFixture,
  where: { root: string; port: number },
): Promise<Floors | null> {
  const { root, port } = where;
  const withFloor = chosen.filter((s) => s.floor);
  if (!withFloor.length) return null;
  const capture = await openDatabase({ databaseUrl });
  const routes: FloorRoute[] = [];
  try {
    for (const scenario of withFloor) {
      // Once to warm what the app keeps between requests, then captured.
      await scenario.floor!(capture.db, fixture);
      routes.push({ name: scenario.name, groups: await captureStatements(() => scenario.floor!(capture.db, fixture)) });
    }
  } finally {
    await capture.close();
  }
  // Kept beside the results: the SQL each floor replayed.
  const routesFile = path.join(
    root,
    'bench/results',
    `floor-routes-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
  );
  mkdirSync(path.dirname(routesFile), { recursive: true });
  writeFileSync(routesFile, JSON.stringify(routes));
  const floorPort = port + 1;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench/floor-server.ts')], {
    env: { ...process.env, FLOOR_ROUTES: routesFile, DATABASE_URL: databaseUrl, PORT: String(floorPort) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const floorBase = `http://127.0.0.1:${floorPort}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`${floorBase}/floor/health`)).ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error('the floor server did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    base: floorBase,
    indexOf: new Map(routes.map((r, i) => [r.name, i])),
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}
