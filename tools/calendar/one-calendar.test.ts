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
/** The demo content first start seeds: outside src (issue #49), and held to the same rules. */
const demo = path.join(root, 'apps/api/demo');

/** The API's modules and the demo's, named from src (`lib/clock.ts`, `../demo/demo-content.ts`). */
function apiFiles(): { name: string; text: string }[] {
  return [...sourceFiles(src), ...sourceFiles(demo)].map((file) => ({
    name: path.relative(src, file),
    text: readFileSync(file, 'utf8'),
  }));
}

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
    const files = apiFiles();
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

/**
 * One clock: what reads the time reads the app's injected clock (`Clock` in
 * apps/api/src/lib/clock.ts), so that a test or a season's simulation that moves it moves
 * everything — the schedule, rounds opening and closing, statistics' days, links', codes' and
 * sessions' expiry, cookies' ages. These read the machine's own time, each for its reason.
 */
const READS_THE_MACHINE_CLOCK: Record<string, string> = {
  'lib/clock.ts': 'the real clock itself (systemClock)',
  'lib/ordered-ids.ts': "a UUID v7's time: when a row was made, on this machine",
  'ops/backup.ts': "a backup's own time stamp",
  'backup-cli.ts': "a backup's own time stamp",
  'totp-cli.ts': "the person's authenticator app's time, on this machine",
  'main.ts': 'the demo links printed at a real start',
  'bootstrap/first-start.ts': 'the demo data made at a real first start',
  '../demo/demo-content.ts': 'the demo data made at a real first start',
  'modules/users/users.repository.ts': "a row's updated_at, as the database's defaults stamp theirs",
  'modules/audit/audit-chain.ts': "an event's time when its caller gave none (every call gives the clock's)",
};
const MACHINE_TIME = [/\bDate\.now\(\)/, /\bnew Date\(\)/];

function machineTimeUses(files: { name: string; text: string }[]): string[] {
  return files
    .filter(({ name }) => !(name in READS_THE_MACHINE_CLOCK))
    .flatMap(({ name, text }) =>
      text
        .split('\n')
        .map((line, i) => ({ line, at: `${name}:${i + 1}` }))
        .filter(({ line }) => !line.trim().startsWith('//') && !line.trim().startsWith('*'))
        .filter(({ line }) => MACHINE_TIME.some((pattern) => pattern.test(line)))
        .map(({ at, line }) => `${at}: ${line.trim()}`),
    );
}

describe('one clock', () => {
  it('no module of the API reads the time but through the injected clock', () => {
    const files = apiFiles();
    expect(machineTimeUses(files)).toEqual([]);
    // Each exception is still there: one that is gone leaves the list.
    expect(Object.keys(READS_THE_MACHINE_CLOCK).filter((name) => !files.some((f) => f.name === name))).toEqual([]);
  });

  it('finds each way of doing it', () => {
    expect(
      machineTimeUses([
        { name: 'a.ts', text: 'const maxAge = (expiresAt.getTime() - Date.now()) / 1000;' },
        { name: 'b.ts', text: 'const stamp = new Date();' },
        { name: 'c.ts', text: 'const now = deps.clock.now(); const then = new Date(now.getTime());' },
      ]),
    ).toEqual([
      'a.ts:1: const maxAge = (expiresAt.getTime() - Date.now()) / 1000;',
      'b.ts:1: const stamp = new Date();',
    ]);
  });
});
