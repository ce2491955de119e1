import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Measured } from './measure.js';

/** A file in bench/results named by its kind and the time it was written; the folder is made if missing. */
export function resultsPath(root: string, prefix = ''): string {
  const resultsDir = path.join(root, 'bench/results');
  mkdirSync(resultsDir, { recursive: true });
  return path.join(resultsDir, `${prefix}${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
}

/** A call's throughput beside its floor's (the same SQL without the app), when it has one. */
export function ratioToFloor(r: Measured, floorResults: Map<string, Measured>): number | null {
  const floor = floorResults.get(r.name);
  return floor ? r.requestsPerSecond / floor.requestsPerSecond : null;
}

/** Prints the run's table: each call's throughput, beside health's and its floor's, and its latencies. */
export function printResultsTable(results: Measured[], floorResults: Map<string, Measured>): void {
  const health = results[0]!;
  console.log(
    `\n${'call'.padEnd(30)}${'req/s'.padStart(8)}${'÷health'.padStart(9)}${'floor'.padStart(8)}${'÷floor'.padStart(8)}${'p50 ms'.padStart(8)}${'p95 ms'.padStart(8)}${'p99 ms'.padStart(8)}  errors`,
  );
  for (const r of results) {
    const ratio = (r.requestsPerSecond / health.requestsPerSecond).toFixed(2);
    const floor = floorResults.get(r.name);
    console.log(
      `${r.name.padEnd(30)}${String(r.requestsPerSecond).padStart(8)}${ratio.padStart(9)}` +
        `${(floor ? String(floor.requestsPerSecond) : '').padStart(8)}${(ratioToFloor(r, floorResults)?.toFixed(2) ?? '').padStart(8)}` +
        `${String(r.p50).padStart(8)}${String(r.p95).padStart(8)}${String(r.p99).padStart(8)}  ${r.errors + r.non2xx}`,
    );
  }
}
