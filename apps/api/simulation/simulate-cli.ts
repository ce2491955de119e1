import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { defaultOptions } from './season-plan.js';
import { simulateSeason } from './season-simulation.js';
import { dayTable, seasonChart } from './season-report.js';

/**
 * `npm run simulate -- --participants 1000 --rounds 4 --seed 7 [--pg URL] [--out DIR]`:
 * rehearses a whole season on a fresh database and prints its day-by-day table, writes its
 * chart, and ends with one line of JSON; the exit status is 0 only when every invariant held.
 */
const { values } = parseArgs({
  options: {
    participants: { type: 'string', default: String(defaultOptions.participants) },
    rounds: { type: 'string', default: String(defaultOptions.rounds) },
    seed: { type: 'string', default: String(defaultOptions.seed) },
    'cases-per-round': { type: 'string', default: String(defaultOptions.casesPerRound) },
    'round-days': { type: 'string', default: String(defaultOptions.roundDays) },
    pg: { type: 'string' },
    out: { type: 'string', default: 'simulation-output' },
  },
});

const whole = (name: string, value: string | undefined, min: number, max: number): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    console.error(`--${name} must be a whole number from ${min} to ${max}`);
    process.exit(2);
  }
  return n;
};

const options = {
  ...defaultOptions,
  participants: whole('participants', values.participants, 1, 200_000),
  rounds: whole('rounds', values.rounds, 1, 4),
  seed: whole('seed', values.seed, 0, 2 ** 31),
  casesPerRound: whole('cases-per-round', values['cases-per-round'], 1, 10),
  roundDays: whole('round-days', values['round-days'], 3, 60),
  pgUrl: values.pg,
};

const run = await simulateSeason({
  ...options,
  onDay: (day) => process.stderr.write(`\r${day.date}`),
});
process.stderr.write('\n');
const outDir = path.resolve(values.out);
mkdirSync(outDir, { recursive: true });
const chartFile = path.join(outDir, `season-${options.participants}-seed-${options.seed}.svg`);
writeFileSync(chartFile, seasonChart(run.table, `${options.participants} participants, seed ${options.seed}`));
console.log(dayTable(run.table));
console.log(`\n${run.database}, ${run.seconds.toFixed(1)} s; chart: ${path.relative(process.cwd(), chartFile)}`);
for (const [name, { count, examples }] of Object.entries(run.details)) {
  console.log(`\n${name}: ${count} failure(s)`);
  for (const example of examples) console.log(`  - ${example}`);
}
console.log(JSON.stringify(run.result));
process.exit(run.result.invariants_failed.length ? 1 : 0);
