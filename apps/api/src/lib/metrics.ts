import { timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { FastifyInstance } from 'fastify';
import { operationsRoutes } from '@pss/contract';
import { rowsOf, type Database } from '../db/client.js';
import { contractRoutes } from './contract-routes.js';
import { AppError } from './errors.js';

/** What a drain of the email outbox did (email-sender.ts answers it). */
interface DrainCounts {
  sent: number;
  failed: number;
  retried: number;
}

/**
 * The background queues as /metrics shows them, read from the database at scrape time (so
 * every process reports the same, whole-system figures): jobs waiting, jobs claimed, and the
 * age of the oldest waiting one — the figure to alert on when no process takes work.
 */
async function readQueues(database: Database) {
  const result = await database.db.execute(sql`
    select 'imports' as queue,
      count(*) filter (where state = 'NOT_STARTED') as waiting,
      count(*) filter (where state = 'RUNNING') as running,
      coalesce(extract(epoch from now() - min(created_at) filter (where state = 'NOT_STARTED')), 0) as oldest
    from import_jobs where state in ('NOT_STARTED', 'RUNNING')
    union all
    select 'emails',
      count(*) filter (where status = 'QUEUED' and next_attempt_at <= now()),
      count(*) filter (where status = 'SENDING'),
      coalesce(extract(epoch from now() - min(next_attempt_at) filter (where status = 'QUEUED' and next_attempt_at <= now())), 0)
    from email_outbox where status in ('QUEUED', 'SENDING')
    union all
    select 'resources',
      count(*) filter (where processing = 'PENDING'),
      count(*) filter (where processing = 'RUNNING'),
      coalesce(extract(epoch from now() - min(created_at) filter (where processing = 'PENDING')), 0)
    from resources where processing in ('PENDING', 'RUNNING')`);
  return rowsOf<{ queue: string; waiting: string | number; running: string | number; oldest: string | number }>(result);
}

/**
 * The app's Prometheus metrics, in a registry of its own (tests build many apps in one
 * process). Request durations per route pattern (never the raw URL: ids would make a series
 * per record), the queues, the emails sent and failed by this process, and the pool.
 */
export function createMetrics(database: Database) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer a request, per route pattern, method and status.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const emails = new Counter({
    name: 'pss_emails_total',
    help: 'Emails this process tried to send, by outcome (sent, failed for good, retry later).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const depth = new Gauge({
    name: 'pss_job_queue_depth',
    help: 'Background jobs by queue and state (waiting: not claimed yet; running: claimed by a process).',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
  });
  const age = new Gauge({
    name: 'pss_job_queue_oldest_age_seconds',
    help: 'How long the oldest waiting job of each queue has waited.',
    labelNames: ['queue'] as const,
    registers: [registry],
  });
  const pool = new Gauge({
    name: 'pss_db_pool_connections',
    help: 'The database pool: connections open, idle, requests waiting for one, and the maximum.',
    labelNames: ['state'] as const,
    registers: [registry],
  });

  const connectionsLost = new Counter({
    name: 'pss_db_connections_lost_total',
    help: 'Database connections of this process that ended with an error (a failover, a restart, a terminated backend).',
    registers: [registry],
  });
  database.onConnectionLost(() => connectionsLost.inc());

  async function collect(): Promise<void> {
    for (const row of await readQueues(database)) {
      depth.set({ queue: row.queue, state: 'waiting' }, Number(row.waiting));
      depth.set({ queue: row.queue, state: 'running' }, Number(row.running));
      age.set({ queue: row.queue }, Number(row.oldest));
    }
    const stats = database.poolStats?.();
    if (stats) {
      pool.set({ state: 'total' }, stats.total);
      pool.set({ state: 'idle' }, stats.idle);
      pool.set({ state: 'waiting' }, stats.waiting);
      pool.set({ state: 'max' }, stats.max);
    }
  }

  return {
    registry,
    /** Times every answered request (hooked once on the root app). */
    register(app: FastifyInstance): void {
      // A callback hook, not an async one: it runs on every answer and waits for nothing.
      app.addHook('onResponse', (request, reply, done) => {
        // Unmatched URLs share one series, so a scanner cannot create a series per path.
        const route = request.routeOptions.url ?? 'unmatched';
        requestDuration.observe(
          { method: request.method, route, status_code: String(reply.statusCode) },
          reply.elapsedTime / 1000,
        );
        done();
      });
    },
    countEmails<T extends DrainCounts>(result: T): T {
      emails.inc({ outcome: 'sent' }, result.sent);
      emails.inc({ outcome: 'failed' }, result.failed);
      emails.inc({ outcome: 'retry' }, result.retried);
      return result;
    },
    async text(): Promise<string> {
      await collect();
      return registry.metrics();
    },
  };
}
export type Metrics = ReturnType<typeof createMetrics>;

/** Compares in constant time, so the token cannot be found a character at a time by timing. */
function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * GET /metrics behind `Authorization: Bearer <METRICS_TOKEN>`. Without a configured token the
 * route answers 404, as if it did not exist: metrics name routes and volumes, which are not
 * for everyone, and an operator who did not ask for them has nothing exposed.
 */
export function registerMetricsRoute(app: FastifyInstance, metrics: Metrics, token: string | undefined): void {
  contractRoutes(app)(
    operationsRoutes.metrics,
    {
      tags: ['Operations'],
      summary: 'Prometheus metrics',
      description:
        'Request durations per route, job queue depth and age, emails sent and failed, the database pool, and ' +
        'the process (memory, CPU, event loop). Takes `Authorization: Bearer <METRICS_TOKEN>`: 401 without it, ' +
        '404 when the server has no METRICS_TOKEN.',
    },
    async (request, reply) => {
      if (!token) throw new AppError('NOT_FOUND');
      const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
      if (!match?.[1] || !sameToken(match[1], token)) throw new AppError('NOT_AUTHORIZED');
      return reply.type(metrics.registry.contentType).send(await metrics.text());
    },
  );
}
