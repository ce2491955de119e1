// One calendar for the whole API: a "day" (a case unlocking, a season ending, a completion
// counted on the dashboard, an email falling due) is a day in the schedule's time zone
// (SCHEDULE_TIME_ZONE), taken with `dayIn` from apps/api/src/lib/clock.ts. Taking the UTC
// day instead (`toISOString().slice(0, 10)` of the clock, or `at time zone 'UTC'` before a
// `::date` in SQL) made the statistics and the schedule disagree near midnight; this holds
// that nobody does it again.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const src = path.join(root, 'apps/api/src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** Ways of taking today's day in UTC. */
const UTC_DAY = [
  /clock\.now\(\)\.toISOString\(\)\.slice\(0,\s*10\)/,
  /new Date\(\)\.toISOString\(\)\.slice\(0,\s*10\)/,
  /at time zone 'UTC'\)::date/i,
];

function utcDayUses(files: { name: string; text: string }[]): string[] {
  return files.flatMap(({ name, text }) =>
    text
      .split('\n')
      .map((line, i) => ({ line, at: `${name}:${i + 1}` }))
      .filter(({ line }) => UTC_DAY.some((pattern) => pattern.test(line)))
      .map(({ at, line }) => `${at}: ${line.trim()}`),
  );
}

describe('one calendar', () => {
  it('no module of the API takes today as a UTC day', () => {
    const files = sourceFiles(src).map((file) => ({
      name: path.relative(src, file),
      text: readFileSync(file, 'utf8'),
    }));
    expect(utcDayUses(files)).toEqual([]);
  });

  it('finds each way of doing it', () => {
    const found = utcDayUses([
      { name: 'a.ts', text: 'const today = deps.clock.now().toISOString().slice(0, 10);' },
      { name: 'b.ts', text: "select (submitted_at at time zone 'UTC')::date as day" },
      { name: 'c.ts', text: 'const today = dayIn(deps.timeZone, deps.clock.now());' },
    ]);
    expect(found).toEqual([
      'a.ts:1: const today = deps.clock.now().toISOString().slice(0, 10);',
      "b.ts:1: select (submitted_at at time zone 'UTC')::date as day",
    ]);
  });
});
