import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../apps/api/src/db/client.js';
import { runEmailBench, seedEmailBench, type EmailBenchFigures } from './emails.js';

/**
 * The emails scenario, with the server stopped: seeds a project of `count` participants,
 * one scheduler run (time, memory), a second (must queue nothing), then sending to a local
 * SMTP server (emails/s; all must arrive). Prints its line and writes bench/results/emails-*.json.
 */
export async function benchEmails(
  databaseUrl: string | undefined,
  dataDir: string,
  count: number,
  /** Emails to send of those queued (`--email-send`; 0: all of them), and where bench/results is. */
  options: { send: number; root: string },
): Promise<EmailBenchFigures> {
  const { send, root } = options;
  const pgliteDataDir = path.join(dataDir, 'pglite');
  const day = new Date().toISOString().slice(0, 10);
  process.stdout.write(`\n  emails: seeding a project of ${count} participants …`);
  const seeding = await openDatabase({ databaseUrl, pgliteDataDir });
  const seedStarted = performance.now();
  const fixture = await seedEmailBench(seeding.db, count, day);
  await seeding.close();
  process.stdout.write(` ${((performance.now() - seedStarted) / 1000).toFixed(1)} s\n`);
  const f = await runEmailBench({
    fixture,
    databaseUrl,
    pgliteDataDir,
    dataDir,
    send,
    onProgress: (line) => console.log(`  emails: ${line}`),
  });
  const { first, second, sending } = f;
  const q = first.projectQueued;
  console.log(
    [
      `\nEmails: a project of ${f.participants} participants (${f.seasonsRead} seasons running on ${f.day} in the database)`,
      `  scheduler run: queued ${first.queued} in ${first.seconds.toFixed(1)} s (in the project ${q.total}: ` +
        `${q.initialProject} initial, ${q.initialSeason} season initial, ${q.reminder} reminders, as seeded), ` +
        `${first.cpuSeconds.toFixed(1)} s of CPU in the app's process; peak RSS ${first.peakRssMb} MB ` +
        `(${f.baseline.rssMb} MB before); heap in use at most ${first.peakHeapUsedMb} MB, left after collections at most ` +
        `${first.heapFloorFirstHalfMb ?? '–'} MB in the run's first half and ${first.heapFloorSecondHalfMb ?? '–'} MB in its ` +
        `second, ${first.heapAfterMb} MB after it and a full GC (${f.baseline.heapUsedMb} MB before)`,
      `  second run: queued ${second.queued} in ${second.seconds.toFixed(1)} s, peak RSS ${second.peakRssMb} MB`,
      `  sending: ${sending.result.sent} of ${sending.queuedBefore} queued` +
        `${sending.target < sending.queuedBefore ? ` (capped by --email-send ${send})` : ''} in ` +
        `${sending.seconds.toFixed(1)} s = ${sending.emailsPerSecond} emails/s to a local SMTP server, ` +
        `${f.received} received; claiming ${sending.claimSeconds.toFixed(1)} s (${sending.claimMs.claims} claims, median ` +
        `${sending.claimMs.median} ms, first tenth ${sending.claimMs.firstTenth} ms, last ${sending.claimMs.lastTenth} ms), ` +
        `reading ${sending.workSeconds.toFixed(1)} s, ` +
        `per email ${sending.mailerMsPerEmail} ms handing over and ${sending.markSentMsPerEmail} ms recording (four at a time); ` +
        `peak RSS ${sending.peakRssMb} MB`,
      `  (load average ${first.loadAverage}, ${second.loadAverage} and ${sending.loadAverage} at the ends of the three on ${os.cpus().length} cores)`,
    ].join('\n'),
  );
  const resultsDir = path.join(root, 'bench/results');
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(
    path.join(resultsDir, `emails-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
    JSON.stringify({ at: new Date().toISOString(), node: process.version, cpus: os.cpus().length, ...f }, null, 2),
  );
  return f;
}
