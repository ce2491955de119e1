import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultOptions } from './season-plan.js';
import { simulateSeason } from './season-simulation.js';

/**
 * A small season rehearsed whole on the database this run tests: fifty clinicians over four
 * rounds, every invariant checked each day. `npm test` runs it once, on PostgreSQL when a server
 * answers (docs/testing.md). The 1,000-clinician season is in `npm run bench`
 * (docs/benchmarks.md).
 */
const pgUrl = process.env.TEST_DATABASE_URL;
const participants = 50;

describe('the season simulator', () => {
  it(
    `walks a season of ${participants} participants and four rounds with every invariant holding`,
    { timeout: 240_000 },
    async () => {
      const run = await simulateSeason({ ...defaultOptions, participants, rounds: 4, seed: 7, pgUrl });
      expect(run.details).toEqual({});
      expect(run.result).toEqual({
        participants,
        days: 67,
        emails_sent: expect.any(Number),
        duplicates: 0,
        sent_after_completion: 0,
        answers_lost: 0,
        suppressed: expect.any(Number),
        statistics_match: true,
        reports_match: true,
        invariants_failed: [],
      });
      // About one in forty addresses bounced: the mail provider reported each, the app put it on
      // its suppression list, and nothing went to it after (nothing_to_suppressed holds above).
      expect(run.result.suppressed).toBeGreaterThanOrEqual(1);
      expect(run.table.reduce((sum, d) => sum + d.bounced, 0)).toBeGreaterThanOrEqual(run.result.suppressed);
      // The season happened: every kind of scheduled email went, and clinicians worked.
      const sent = (type: string) => run.table.reduce((sum, d) => sum + (d.emails[type] ?? 0), 0);
      for (const type of ['initial', 'reminder', 'new_round', 'last_day_of_round', 'last_round', 'summary_launch']) {
        expect(sent(type), type).toBeGreaterThan(0);
      }
      expect(run.table.reduce((sum, d) => sum + d.completed, 0)).toBeGreaterThan(participants * 2);
      // Some never start and some drop out: the season ends neither empty nor complete.
      const last = run.table[run.table.length - 1]!;
      expect(last.participation).toBeGreaterThan(0.5);
      expect(last.participation).toBeLessThan(1);
    },
  );

  it('runs from the command line: a table, a chart, one line of JSON last, exit status 0', { timeout: 120_000 }, () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'pss-simulate-'));
    const cli = path.resolve(import.meta.dirname, 'simulate-cli.ts');
    const tsx = path.resolve(import.meta.dirname, '../../../node_modules/.bin/tsx');
    const args = [cli, '--participants', '4', '--rounds', '1', '--round-days', '3', '--seed', '3', '--out', out];
    const run = spawnSync(tsx, [...args, ...(pgUrl ? ['--pg', pgUrl] : [])], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(JSON.parse(lines[lines.length - 1]!)).toMatchObject({ participants: 4, invariants_failed: [] });
    expect(run.stdout).toMatch(/^\| day \| round \| initial \| reminder \|/m);
    const [chart] = readdirSync(out);
    expect(readFileSync(path.join(out, chart!), 'utf8')).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  });

  it('refuses a bad option with a message and exit status 2', () => {
    const cli = path.resolve(import.meta.dirname, 'simulate-cli.ts');
    const tsx = path.resolve(import.meta.dirname, '../../../node_modules/.bin/tsx');
    const run = spawnSync(tsx, [cli, '--participants', 'many'], { encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--participants must be a whole number');
  });
});
