import { openCliDatabase } from './db/cli-database.js';
import { compareKeptCounts, rebuildKeptCounts, seasonsToCount } from './db/kept-counts.js';

/**
 * `npm run counts -- verify` compares every season's kept counts (the dashboard's figures,
 * kept current by the database: docs/design/statistics.md) with a recomputation from the
 * source rows and names the seasons that differ; `npm run counts -- rebuild` recomputes them.
 * Reads DATABASE_URL, or the embedded database under DATA_DIR (stop the server first: an
 * embedded database has one process). Exit status: 0 done (verify: all the same), 1 a
 * season differs, 2 no database or a bad command.
 */
async function main(): Promise<number> {
  const command = process.argv[2];
  if (command !== 'verify' && command !== 'rebuild') {
    console.error('Usage: npm run counts -- verify | rebuild');
    return 2;
  }
  const database = await openCliDatabase();
  if (!database) return 2;
  try {
    await database.migrate();
    let differing = 0;
    const seasons = await seasonsToCount(database.db);
    for (const season of seasons) {
      if (command === 'rebuild') {
        await rebuildKeptCounts(database.db, season.id);
        continue;
      }
      const { kept, rebuilt, same } = await compareKeptCounts(database.db, season.id);
      if (same) continue;
      differing += 1;
      const onlyKept = kept.filter((line) => !rebuilt.includes(line)).length;
      const onlyRebuilt = rebuilt.filter((line) => !kept.includes(line)).length;
      console.error(`${season.name}: ${onlyKept} kept rows differ from the ${onlyRebuilt} a rebuild makes`);
    }
    if (command === 'rebuild') console.log(`Recomputed the kept counts of ${seasons.length} seasons.`);
    else if (!differing) console.log(`The kept counts of all ${seasons.length} seasons equal a recomputation.`);
    return differing ? 1 : 0;
  } finally {
    await database.close();
  }
}

process.exitCode = await main();
