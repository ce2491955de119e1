import fastifyMultipart from '@fastify/multipart';
import { MAX_IMPORT_FILE_BYTES } from '@pss/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { createAppEmails, type AppEmails } from './app-emails.js';
import { loggerOptions } from './app-logging.js';
import { registerApiRoutes } from './app-routes.js';
import { registerAppSecurityHeaders } from './app-security-headers.js';
import { createAppServices } from './app-services.js';
import type { Config } from './config.js';
import { migrationsFolder, type Database } from './db/client.js';
import { createUnitOfWork, type UnitOfWork } from './db/unit-of-work.js';
import { latestMigrationTime, migrationsApplied } from './db/migration-state.js';
import { createMetrics, registerMetricsRoute } from './lib/metrics.js';
import { registerRequestContext, requestIdOf } from './lib/request-context.js';
import { createHalfSignedIn } from './modules/auth/second-factor/half-signed-in.js';
import { registerAccessControl, type DeclaredRoute } from './lib/access-control.js';
import { systemClock, type Clock } from './lib/clock.js';
import { frameworkErrors, registerErrorHandler } from './lib/error-handler.js';
import type { Mailer } from './lib/mailer.js';
import { registerNulGuard } from './lib/nul-guard.js';
import { registerOpenApi } from './lib/openapi.js';
import { registerStaticWeb } from './lib/static-web.js';
import type { FileStorage } from './lib/storage.js';
import { createTokenService } from './lib/tokens.js';
import { createLiveSessions } from './modules/auth/live-sessions.js';
import { createAuditSealer } from './modules/audit/audit-sealer.js';
import { createCheckpointBook } from './modules/audit/audit-checkpoints.js';
import { createCallRecorder, type SystemRecorder } from './modules/audit/call-recorder.service.js';
import { registerCallLimits } from './modules/call-limits/call-limits.js';
import type { SenderOptions } from './modules/emails/email-sender.js';
import type { ImportsService } from './modules/imports/imports.service.js';
import type { ResourceProcessing } from './modules/resources/resource-processing.js';

export type { AppEmails } from './app-emails.js';
export { redactedLogPaths, redactUrl } from './app-logging.js';

export interface AppDeps {
  config: Config;
  database: Database;
  clock?: Clock;
  /** A pino logger config, or false for silence (tests). */
  logger?: boolean | Record<string, unknown>;
  /** Where uploads are kept; local disk under DATA_DIR/files by default. */
  storage?: FileStorage;
  /** Tests may pass their own; otherwise SMTP from the configuration. */
  mailer?: Mailer;
  /** Tests shorten the outbox's retries and leases. */
  emailSender?: SenderOptions;
}

/** The resource library's background work (thumbnails, media facts), as main.ts starts it and tests drive it. */
export type AppResources = Pick<ResourceProcessing, 'runPending' | 'startWorker'>;

/** The app, with what main.ts and tests reach into: the route list and the import queue. */
export type App = FastifyInstance & {
  declaredRoutes: DeclaredRoute[];
  /** From SIGTERM on (main.ts): /api/health/ready answers 503 so balancers stop sending traffic. */
  startDraining(): void;
  imports: ImportsService;
  emails: AppEmails;
  resources: AppResources;
  /** The unit of work the app's recorded calls and its own work run in, with the services' handle. */
  units: UnitOfWork;
  /** What the app's own work records itself through in the audit trail. */
  audit: SystemRecorder;
};

/**
 * Builds the whole application. Every test builds its app here, on a real database. The
 * order is the framework's first (logging, request ids, errors, access control, headers,
 * OpenAPI), then the services (app-services.ts, app-emails.ts), then the routes
 * (app-routes.ts), the metrics route and the web app.
 */
/** A read whose answer does not change while the process runs, made once it is first asked for. */
function onceSettled<T>(read: () => Promise<T>): () => Promise<T> {
  let answer: Promise<T> | null = null;
  return () => {
    answer ??= read().catch((error: unknown) => {
      answer = null;
      throw error;
    });
    return answer;
  };
}

export async function buildApp(deps: AppDeps): Promise<App> {
  const { config, database } = deps;
  const clock = deps.clock ?? systemClock;
  const app = Fastify({
    logger: loggerOptions(config.logLevel, deps.logger),
    // Only a configured proxy's X-Forwarded-For names the caller: the sign-in limits count per address.
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    bodyLimit: 1024 * 1024,
    frameworkErrors,
    // Ids unique across processes (and a proxy's X-Request-Id kept), so one request's lines
    // — and its import's, which carry the id too — can be found in the logs of many processes.
    genReqId: requestIdOf,
    // During a graceful shutdown a request on a kept-alive connection is still answered, not
    // refused with 503: the process stops taking connections, not requests it already has.
    return503OnClosing: false,
  });
  registerRequestContext(app);
  const metrics = createMetrics(database);
  // A lost connection is survived (db/resilient-pool.ts); the log says when and why.
  database.onConnectionLost((error) =>
    app.log.warn({ code: (error as { code?: unknown }).code, reason: error.message }, 'database connection lost'),
  );
  metrics.register(app);
  let draining = false;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerNulGuard(app);

  const tokens = createTokenService(config.sessionSecret, config.accessTokenTtlSeconds);
  const declaredRoutes = registerAccessControl(app, {
    tokens,
    clock,
    sessions: createLiveSessions(database.db),
    halfSignedIn: createHalfSignedIn(database.db),
  });

  await app.register(fastifyCookie);
  registerAppSecurityHeaders(app, config);

  await registerOpenApi(app);

  const latestMigration = latestMigrationTime(migrationsFolder);
  // The unit of work (db/unit-of-work.ts): the route binding opens one for each call the trail
  // records (a change: one transaction), the services' handle follows it, and the audit trail
  // follows it to write each call's event into it; the sealer chains the events. Its links and
  // checkpoints are sealed with a key the database never holds (issue #46).
  const units = createUnitOfWork(database.db, { log: app.log });
  const auditCheckpoints = createCheckpointBook({
    dataDir: config.dataDir,
    key: config.auditSigningKey,
    log: app.log,
    clock,
  });
  const sealer = createAuditSealer({
    db: database.db,
    key: config.auditSigningKey,
    checkpoints: auditCheckpoints,
    log: app.log,
  });
  sealer.start();
  app.addHook('onClose', () => sealer.stop());
  const audit = createCallRecorder(app, {
    units,
    db: database.db,
    clock,
    log: app.log,
    written: () => sealer.written(),
  });
  // Anonymous calls are limited in the database, every process counting together (modules/call-limits).
  const limits = registerCallLimits(app, { db: database.db, clock, settings: config, written: () => sealer.written() });
  // What the contract's routes run their calls in (lib/contract-routes.ts).
  app.decorate('routeCalls', { units, limits });
  const servicesDatabase: Database = { ...database, db: units.db };
  const services = createAppServices(app, {
    config,
    database: servicesDatabase,
    clock,
    tokens,
    storage: deps.storage,
    mailer: deps.mailer,
    auditCheckpoints,
    audit,
  });
  const { emails, ...emailServices } = createAppEmails({
    config,
    database: servicesDatabase,
    clock,
    tokens,
    mailer: services.mailer,
    metrics,
    log: app.log,
    projects: services.projectsService,
    participants: services.participantsService,
    senderOptions: deps.emailSender,
    audit,
  });

  await app.register(fastifyMultipart, { limits: { fileSize: MAX_IMPORT_FILE_BYTES, files: 1, fields: 10 } });
  await registerApiRoutes(app, { ...services, ...emailServices }, config, {
    ping: database.ping,
    migrationsApplied: () => migrationsApplied(database.db, latestMigration),
    draining: () => draining,
    trailProtection: onceSettled(() => database.trailProtection()),
    storage: services.storage,
  });

  registerMetricsRoute(app, metrics, config.metricsToken);
  await registerStaticWeb(app, config.webDistDir);

  const built = app as unknown as App;
  built.declaredRoutes = declaredRoutes;
  built.startDraining = () => {
    draining = true;
  };
  built.imports = services.imports;
  built.resources = {
    runPending: () => services.resourceProcessing.runPending(),
    startWorker: (pollMs) => services.resourceProcessing.startWorker(pollMs),
  };
  built.emails = emails;
  built.units = units;
  built.audit = audit;
  return built;
}
