/**
 * The floor server (see bench/floor.ts): bare Fastify and a pg pool of the app's size,
 * serving `/floor/health` (no database) and `/floor/<n>` for each captured list call, which
 * replays that call's statements and answers the last statement's rows as JSON.
 *
 *   FLOOR_ROUTES=routes.json DATABASE_URL=postgres://… PORT=3311 tsx bench/floor-server.ts
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import pg from 'pg';
import type { FloorRoute } from './floor.js';

const routes = JSON.parse(readFileSync(process.env.FLOOR_ROUTES!, 'utf8')) as FloorRoute[];
// The app's pool is 20 connections (apps/api/src/db/client.ts); the floor has the same.
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const app = Fastify({ logger: false });

app.get('/floor/health', async () => ({ status: 'ok' }));

routes.forEach((route, index) => {
  app.get(`/floor/${index}`, async () => {
    let rows: unknown[] = [];
    for (const group of route.groups) {
      const results = await Promise.all(group.map((s) => pool.query(s.text, s.values)));
      rows = results.at(-1)!.rows;
    }
    return rows;
  });
});

await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
process.on('SIGTERM', () => {
  void app.close().then(() => pool.end().then(() => process.exit(0)));
});
