import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { defaultOptions } from '../apps/api/simulation/season-plan.js';
import { dayTable, seasonChart } from '../apps/api/simulation/season-report.js';
import { simulateSeason } from '../apps/api/simulation/season-simulation.js';
import { root } from './run-options.js';

/**
 * `npm run bench -- --scenarios season [--season-participants 1000] [--pg URL]`: the season
 * simulator's large run (apps/api/simulation). Its time, its calls per second, its table
 * and its chart go to bench/results/season-*; docs/benchmarks.md keeps the last one's.
 */
export async function runSeasonBench(options: { participants: number; pgUrl?: string }): Promise<void> {
  console.log(`A season of ${options.participants} participants, four rounds, seed 7…`);
  const run = await simulateSeason({
    ...defaultOptions,
    participants: options.participants,
    rounds: 4,
    seed: 7,
    pgUrl: options.pgUrl,
    onDay: (day) => process.stdout.write(`\r${day.date}`),
  });
  process.stdout.write('\n');
  const results = path.join(root, 'bench/results');
  mkdirSync(results, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const figures = {
    database: run.database,
    seconds: run.seconds,
    calls: run.calls,
    calls_per_second: run.calls / run.seconds,
    result: run.result,
    details: run.details,
  };
  writeFileSync(path.join(results, `season-${stamp}.json`), JSON.stringify({ ...figures, table: run.table }));
  writeFileSync(
    path.join(results, `season-${stamp}.svg`),
    seasonChart(run.table, `${options.participants} participants, seed 7`),
  );
  writeFileSync(path.join(results, `season-${stamp}.md`), dayTable(run.table) + '\n');
  console.log(dayTable(run.table));
  console.log(
    `\n${run.database}: ${run.seconds.toFixed(0)} s for ${run.result.days} days, ${run.calls} HTTP calls ` +
      `(${figures.calls_per_second.toFixed(0)}/s); table, chart and figures in bench/results/season-${stamp}.*`,
  );
  console.log(JSON.stringify(run.result));
  if (run.result.invariants_failed.length) process.exitCode = 1;
}
