/**
 * The Progress Dashboard as it was answered before the kept counts (issue #36), for the
 * "before" of bench/dashboard.ts: bare Fastify on the app's pool size, answering the season's
 * figures and question categories with the reference computation (the season's work read
 * whole, apps/api/test/season-figures-reference.ts), and no result cache, as the app with
 * STATISTICS_CACHE_SECONDS=0 did. Calls made at the same moment share one computation, as
 * the app's did (`lib/shared-results.ts`). No sign-in: its cost is the same before and after.
 *
 *   DATABASE_URL=postgres://… PORT=3313 PROJECT_ID=… SEASON_ID=… TIME_ZONE=UTC tsx bench/reference-statistics-server.ts
 */
import Fastify from 'fastify';
import { openDatabase } from '../apps/api/src/db/client.js';
import { dayIn, systemClock } from '../apps/api/src/lib/clock.js';
import { sharedResults } from '../apps/api/src/lib/shared-results.js';
import { summariseCategoryUse } from '../apps/api/src/modules/statistics/category-use.js';
import { createSeasonFiguresRepository } from '../apps/api/test/season-figures-reference.js';

const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL });
const reference = createSeasonFiguresRepository(database.db);
const shared = sharedResults({ ttlMs: 0, clock: systemClock });
const timeZone = process.env.TIME_ZONE ?? 'UTC';
const scope = () => ({
  projectId: process.env.PROJECT_ID!,
  seasonId: process.env.SEASON_ID!,
  today: dayIn(timeZone, new Date()),
  timeZone,
});
const figures = () => shared.get('figures', () => reference.seasonFigures(scope()));
const app = Fastify({ logger: false });

app.get('/before/health', async () => ({ status: 'ok' }));
// The six calls of the tiles and charts each answered a part of the one computation.
app.get('/before/participation', async () => (await figures()).participation);
app.get('/before/completion-cases', async () => (await figures()).caseCompletion);
app.get('/before/completion-people', async () => (await figures()).participantCompletion);
app.get('/before/by-round', async () => ({ items: (await figures()).byRound }));
app.get('/before/case-completion', async () => ({ items: (await figures()).cases }));
app.get('/before/by-day', async () => ({ items: (await figures()).completionsByDay }));
app.get('/before/categories', async () => ({
  items: summariseCategoryUse(await shared.get('categories', () => reference.categoryUse(scope()))),
}));

await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
process.on('SIGTERM', () => {
  void app.close().then(() => database.close().then(() => process.exit(0)));
});
