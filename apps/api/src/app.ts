import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import { MAX_IMPORT_FILE_BYTES } from '@pss/contract';
import { createMailer, type Mailer } from './lib/mailer.js';
import { localFileStorage, type FileStorage } from './lib/storage.js';
import { createImportsRepository } from './modules/imports/imports.repository.js';
import { createImportsService, type ImportsService } from './modules/imports/imports.service.js';
import { createProjectsService } from './modules/projects/projects.service.js';
import { registerProjectsRoutes } from './modules/projects/projects.routes.js';
import { createCaseAccess } from './modules/cases/case-access.js';
import { registerCaseMediaRoutes } from './modules/cases/case-media.routes.js';
import { createCaseMediaService } from './modules/cases/case-media.service.js';
import { registerCasePreviewsRoutes } from './modules/cases/case-previews.routes.js';
import { createCasePreviewsService } from './modules/cases/case-previews.service.js';
import { registerCaseTransfersRoutes } from './modules/cases/case-transfers.routes.js';
import { createCaseTransfersService } from './modules/cases/case-transfers.service.js';
import { registerCasesRoutes } from './modules/cases/cases.routes.js';
import { createCasesService } from './modules/cases/cases.service.js';
import { registerModuleLibraryRoutes } from './modules/module-library/module-library.routes.js';
import { createModuleLibraryService } from './modules/module-library/module-library.service.js';
import { registerElementsRoutes } from './modules/elements/elements.routes.js';
import { createElementsService } from './modules/elements/elements.service.js';
import { createAttemptsRepository } from './modules/attempts/attempts.repository.js';
import { registerAttemptsRoutes } from './modules/attempts/attempts.routes.js';
import { createAttemptsService } from './modules/attempts/attempts.service.js';
import { createCmesRepository } from './modules/cmes/cmes.repository.js';
import { createParticipantsRepository } from './modules/participants/participants.repository.js';
import { createParticipantsService } from './modules/participants/participants.service.js';
import { registerParticipantsRoutes } from './modules/participants/participants.routes.js';
import { createCmesService } from './modules/cmes/cmes.service.js';
import { registerEmailsRoutes } from './modules/emails/emails.routes.js';
import { createEmailsService } from './modules/emails/emails.service.js';
import { createEmailOutboxRepository } from './modules/emails/email-outbox.repository.js';
import { createEmailScheduleRepository } from './modules/emails/email-schedule.repository.js';
import { createEmailScheduler, type EmailScheduler } from './modules/emails/email-scheduler.js';
import { createEmailSender, type EmailSender, type SenderOptions } from './modules/emails/email-sender.js';
import { createEmailSendingService } from './modules/emails/email-sending.service.js';
import { registerEmailSendingRoutes } from './modules/emails/email-sending.routes.js';
import { createEmailWorker } from './modules/emails/email-worker.js';
import { registerStatisticsRoutes } from './modules/statistics/statistics.routes.js';
import { createStatisticsService } from './modules/statistics/statistics.service.js';
import { ensureEmailTemplates } from './db/email-templates.js';
import { registerCmesRoutes } from './modules/cmes/cmes.routes.js';
import { createSeasonSummariesService } from './modules/season-summaries/season-summaries.service.js';
import { registerSeasonSummariesRoutes } from './modules/season-summaries/season-summaries.routes.js';
import { createReportsRepository } from './modules/reports/reports.repository.js';
import { createReportsService } from './modules/reports/reports.service.js';
import { registerReportsRoutes } from './modules/reports/reports.routes.js';
import { createSurveysService } from './modules/surveys/surveys.service.js';
import { registerSurveysRoutes } from './modules/surveys/surveys.routes.js';
import { createResourceProcessing, type ResourceProcessing } from './modules/resources/resource-processing.js';
import { copyCaseResources, createResourcesService } from './modules/resources/resources.service.js';
import { registerResourcesRoutes } from './modules/resources/resources.routes.js';
import { createSignedLinks } from './lib/signed-links.js';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import { migrationsFolder, type Database } from './db/client.js';
import { latestMigrationTime, migrationsApplied } from './db/migration-state.js';
import { createMetrics, registerMetricsRoute } from './lib/metrics.js';
import { currentRequestId, registerRequestContext, requestIdOf } from './lib/request-context.js';
import { registerAccessControl, type DeclaredRoute } from './lib/access-control.js';
import { systemClock, type Clock } from './lib/clock.js';
import { frameworkErrors, registerErrorHandler } from './lib/error-handler.js';
import { registerNulGuard } from './lib/nul-guard.js';
import { registerSecurityHeaders } from './lib/security-headers.js';
import { registerOpenApi } from './lib/openapi.js';
import { registerStaticWeb } from './lib/static-web.js';
import { inlineScriptSources } from './lib/index-html.js';
import { createTokenService } from './lib/tokens.js';
import { createSessionsRepository } from './modules/auth/sessions.repository.js';
import { createLiveSessions } from './modules/auth/live-sessions.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { registerAuthRoutes } from './modules/auth/auth.routes.js';
import { createOidcProviderClient } from './modules/auth/oidc/oidc-provider-client.js';
import { createOidcSignIn } from './modules/auth/oidc/oidc-sign-in.js';
import { createOidcTransactions } from './modules/auth/oidc/oidc-transaction.js';
import { registerOidcRoutes } from './modules/auth/oidc/oidc.routes.js';
import { createClientsRepository } from './modules/clients/clients.repository.js';
import { createClientsService } from './modules/clients/clients.service.js';
import { registerClientsRoutes } from './modules/clients/clients.routes.js';
import { registerHealthRoutes } from './modules/health/health.routes.js';
import { registerSettingsRoutes } from './modules/settings/settings.routes.js';
import { registerSitePageRoutes } from './modules/site-pages/site-pages.js';
import { createUserManagementRepository, createUsersRepository } from './modules/users/users.repository.js';
import { createUserManagementService } from './modules/users/user-management.service.js';
import { registerUserManagementRoutes } from './modules/users/user-management.routes.js';
import { createUsersService } from './modules/users/users.service.js';
import { registerUsersRoutes } from './modules/users/users.routes.js';

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

/** The email schedule and outbox, as main.ts starts them and tests drive them. */
export interface AppEmails {
  /** Queues what the schedule says is due today. */
  runScheduler: EmailScheduler['run'];
  /** Sends what is due in the outbox until nothing is left. */
  drain: EmailSender['drain'];
  /** Runs both in the background (main.ts); answers a stop function. */
  startWorker(): () => Promise<void>;
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
};

/** What never reaches the logs. */
export const redactedLogPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.password_hash',
  '*.access_token',
  // The identity provider's tokens. (Its code and state come in a request body, which is
  // never logged, and in /keycloak-landing's query: see credentialParams.)
  '*.id_token',
  '*.refresh_token',
];

/** Paths whose next segment is a credential: a dashboard link's sign-in token, a resource file's signed token. */
const credentialPaths = /(\/participant\/link\/|\/resource-files\/)[^/?#]+/g;

/**
 * Query parameters that are credentials: a password link's `code`, and the identity
 * provider's answer (`code`, `state`, `session_state`, `id_token_hint`).
 */
const credentialParams = /([?&](?:code|state|session_state|id_token_hint)=)[^&#]*/g;

/** A URL as the log shows it: without the credentials in its path or its query. */
export function redactUrl(url: string): string {
  return url.replace(credentialPaths, '$1[redacted]').replace(credentialParams, '$1[redacted]');
}

function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** Builds the whole application. Every test builds its app here, on a real database. */
export async function buildApp(deps: AppDeps): Promise<App> {
  const { config, database } = deps;
  const clock = deps.clock ?? systemClock;
  const app = Fastify({
    logger:
      deps.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: redactedLogPaths,
            serializers: { req: serializeRequest },
            ...(deps.logger === true || !deps.logger ? {} : deps.logger),
          },
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
  });

  await app.register(fastifyCookie);
  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // The site's files, and the web app's one inline script by its hash (lib/index-html.ts).
        scriptSrc: ["'self'", ...inlineScriptSources(config.webDistDir)],
        // Mantine writes its CSS variables and component styles inline.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        // A summary's video plays from the bytes its call answered (it needs the session's token).
        mediaSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    // The app is served over plain http on localhost in development.
    strictTransportSecurity: config.secureCookies,
  });

  await registerOpenApi(app);

  const { db } = database;
  const latestMigration = latestMigrationTime(migrationsFolder);
  const storage = deps.storage ?? localFileStorage(path.join(config.dataDir, 'files'));
  const imports = createImportsService({
    imports: createImportsRepository(db),
    storage,
    clock,
    log: app.log,
    leaseMs: config.importLeaseSeconds * 1000,
    maxAttempts: config.importMaxAttempts,
    requestId: currentRequestId,
  });
  const clientsService = createClientsService({ clients: createClientsRepository(db), clock });
  imports.registerRunner('CAP', (context) => clientsService.importCapRoster(context));
  const usersRepository = createUsersRepository(db);
  const usersService = createUsersService({
    users: usersRepository,
    clientExists: (id) => clientsService.exists(id),
  });
  const mailer = deps.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.smtpFrom, log: app.log });
  const authService = createAuthService({
    users: usersService,
    sessions: createSessionsRepository(db),
    tokens,
    clock,
    mailer,
    settings: config,
    log: app.log,
  });
  // The provider sends the browser back to the web app, which hands its answer to the API.
  const oidcSignIn = config.oidc
    ? createOidcSignIn({
        provider: createOidcProviderClient(
          config.oidc,
          { redirect: `${config.publicUrl}/keycloak-landing`, postLogout: `${config.publicUrl}/logged-out` },
          app.log,
        ),
        transactions: createOidcTransactions(config.sessionSecret),
        auth: authService,
        users: usersService,
        clock,
      })
    : undefined;
  // Mail sent after its answer (sign-in links, notices) is delivered before the app closes,
  // then the mail server's pooled connections are closed.
  app.addHook('onClose', async () => {
    await authService.settle();
    mailer.close?.();
  });
  const userManagement = createUserManagementService({
    repository: createUserManagementRepository(db),
    users: usersRepository,
    sessions: authService,
    clock,
  });
  const projectsService = createProjectsService({ db, clients: clientsService, clock });
  const emailsService = createEmailsService({ db, projects: projectsService, clock });
  const cmesService = createCmesService({ cmes: createCmesRepository(db), projects: projectsService, clock });
  const participantsService = createParticipantsService({
    participants: createParticipantsRepository(db),
    projects: projectsService,
    imports,
    clients: clientsService,
    importDatabase: { db, singleConnection: database.kind === 'pglite' },
    clock,
  });
  const elementsService = createElementsService({ db, projects: projectsService, imports });
  const caseAccess = createCaseAccess({ db, projects: projectsService, clock });
  const casesService = createCasesService({ db, access: caseAccess, storage, clock });
  const caseTransfers = createCaseTransfersService({
    db,
    access: caseAccess,
    elements: elementsService,
    resources: { copyCaseResources },
    storage,
    clock,
  });
  const casePreviews = createCasePreviewsService({ db, access: caseAccess, clock });
  const caseMedia = createCaseMediaService({ db, access: caseAccess, storage, clock });
  const moduleLibraryService = createModuleLibraryService({
    db,
    cases: casesService,
    transfers: caseTransfers,
    clock,
  });
  imports.registerRunner('SUMMARY', (context) => elementsService.runKeyTakeawaysImport(context));
  imports.registerRunner('ANSWER_TAGS', (context) => elementsService.runAnswerTagsImport(context));
  const seasonSummaries = createSeasonSummariesService({ db, projects: projectsService, storage, clock });
  const attemptsService = createAttemptsService({
    attempts: createAttemptsRepository(db),
    cases: casesService,
    images: caseMedia,
    projects: projectsService,
    users: usersService,
    summaries: seasonSummaries,
    clock,
  });
  imports.registerRunner('PARTICIPANTS', (context) => participantsService.runImport(context));
  imports.registerRunner('NEW_USERS', (context) => participantsService.runNewUsersImport(context));
  imports.registerMaintenance(() => participantsService.refreshStaleSearch());

  const statisticsService = createStatisticsService({
    db,
    projects: projectsService,
    clock,
    cacheSeconds: config.statisticsCacheSeconds,
  });

  const emailOutbox = createEmailOutboxRepository(db);
  const emailScheduler = createEmailScheduler({
    schedule: createEmailScheduleRepository(db, config.scheduleTimeZone),
    outbox: emailOutbox,
    ensureTemplates: (projectId) => ensureEmailTemplates(db, projectId),
    clock,
    timeZone: config.scheduleTimeZone,
  });
  const emailSender = createEmailSender({
    outbox: emailOutbox,
    mailer,
    clock,
    timeZone: config.scheduleTimeZone,
    publicUrl: config.publicUrl,
    support: config.support,
    dashboardLink: async (userId, now) =>
      `${config.publicUrl}/participant/link/${await tokens.signLinkToken(userId, now, config.linkTtlDays)}`,
    log: app.log,
    options: { leaseMs: config.emailLeaseSeconds * 1000, ...deps.emailSender },
  });
  // Every drain's outcome is counted for /metrics, whether the worker or a test runs it.
  const countedSender = { drain: async () => metrics.countEmails(await emailSender.drain()) };
  const emailWorker = createEmailWorker({ scheduler: emailScheduler, sender: countedSender, log: app.log });
  const emailSending = createEmailSendingService({
    db,
    projects: projectsService,
    participants: participantsService,
    outbox: emailOutbox,
    scheduler: emailScheduler,
    clock,
    timeZone: config.scheduleTimeZone,
    publicUrl: config.publicUrl,
    support: config.support,
    testEmailLimits: config.testEmailLimits,
    wake: () => emailWorker.wake(),
  });

  const surveysService = createSurveysService({ db, projects: projectsService, clock });
  const reportsService = createReportsService({
    reports: createReportsRepository(db),
    projects: projectsService,
    surveys: surveysService,
    clock,
    timeZone: config.scheduleTimeZone,
  });

  const resourceProcessing = createResourceProcessing({ db, storage, clock, log: app.log });
  // Its drawing thread ends with the app.
  app.addHook('onClose', () => resourceProcessing.close());
  const resourcesService = createResourcesService({
    db,
    storage,
    clock,
    links: createSignedLinks(config.sessionSecret, 'pss-resource-file'),
    linkTtlSeconds: config.resourceLinkTtlMinutes * 60,
    processing: resourceProcessing,
    cases: casesService,
    attempts: attemptsService,
  });

  await app.register(fastifyMultipart, { limits: { fileSize: MAX_IMPORT_FILE_BYTES, files: 1, fields: 10 } });
  await app.register(
    async (api) => {
      registerHealthRoutes(api, {
        ping: database.ping,
        migrationsApplied: () => migrationsApplied(db, latestMigration),
        draining: () => draining,
      });
      registerSitePageRoutes(api, { dataDir: config.dataDir, support: config.support });
      registerSettingsRoutes(api, {
        inactivity_timeout_minutes: config.inactivityTimeoutMinutes,
        token_refresh_interval_seconds: config.tokenRefreshIntervalSeconds,
        oidc_enabled: Boolean(config.oidc),
        admin_password_login: config.adminPasswordLogin,
      });
      registerAuthRoutes(
        api,
        { auth: authService, users: usersService },
        {
          secureCookies: config.secureCookies,
          enableSuperfakeLogin: config.enableSuperfakeLogin,
        },
      );
      registerOidcRoutes(
        api,
        { oidc: oidcSignIn, auth: authService },
        { secureCookies: config.secureCookies, publicUrl: config.publicUrl, newLoginEnabled: config.newLoginEnabled },
      );
      registerUsersRoutes(api, usersService);
      registerUserManagementRoutes(api, userManagement);
      registerClientsRoutes(api, { clients: clientsService, imports, storage });
      registerProjectsRoutes(api, projectsService);
      registerCmesRoutes(api, cmesService);
      registerEmailsRoutes(api, emailsService);
      registerEmailSendingRoutes(api, emailSending);
      registerStatisticsRoutes(api, statisticsService);
      registerParticipantsRoutes(api, participantsService, storage);
      registerCasesRoutes(api, casesService);
      registerCaseTransfersRoutes(api, caseTransfers);
      registerCasePreviewsRoutes(api, casePreviews);
      registerCaseMediaRoutes(api, caseMedia, storage);
      registerModuleLibraryRoutes(api, moduleLibraryService);
      registerElementsRoutes(api, elementsService, storage);
      registerAttemptsRoutes(api, attemptsService);
      registerSeasonSummariesRoutes(api, seasonSummaries, storage);
      registerReportsRoutes(api, reportsService);
      registerSurveysRoutes(api, surveysService);
      registerResourcesRoutes(api, resourcesService, storage);
    },
    { prefix: '/api' },
  );

  registerMetricsRoute(app, metrics, config.metricsToken);
  await registerStaticWeb(app, config.webDistDir);

  const built = app as unknown as App;
  built.declaredRoutes = declaredRoutes;
  built.startDraining = () => {
    draining = true;
  };
  built.imports = imports;
  built.resources = {
    runPending: () => resourceProcessing.runPending(),
    startWorker: (pollMs) => resourceProcessing.startWorker(pollMs),
  };
  built.emails = {
    runScheduler: () => emailScheduler.run(),
    drain: () => countedSender.drain(),
    startWorker: () => emailWorker.start({ schedulerIntervalMs: config.schedulerIntervalSeconds * 1000 }),
  };
  return built;
}
