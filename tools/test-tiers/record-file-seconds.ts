// Writes file-seconds.json from the reports `npm test` leaves in .test-reports: each test
// file's longest time in any step, for the files that take a second or more (the rest keep
// Vitest's own order). The longest-first sequencer reads it.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const reports = ['vitest-pglite.json', 'vitest-postgres.json', 'vitest-alone.json'].map((name) =>
  path.join(root, '.test-reports', name),
);

const seconds: Record<string, number> = {};
for (const report of reports.filter((file) => existsSync(file))) {
  const { testResults } = JSON.parse(readFileSync(report, 'utf8')) as {
    testResults: { name: string; startTime: number; endTime: number }[];
  };
  for (const result of testResults) {
    const file = path.relative(root, result.name);
    const taken = Math.round((result.endTime - result.startTime) / 100) / 10;
    if (taken >= 1) seconds[file] = Math.max(seconds[file] ?? 0, taken);
  }
}
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => a.localeCompare(b)));
const out = path.join(import.meta.dirname, 'file-seconds.json');
writeFileSync(out, `${JSON.stringify({ note: 'Written by record-file-seconds.ts', seconds: sorted }, null, 2)}\n`);
process.stdout.write(`${Object.keys(sorted).length} files of a second or more, into ${path.relative(root, out)}\n`);
