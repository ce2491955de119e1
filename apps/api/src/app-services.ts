import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { Clock } from './lib/clock.js';
import { currentRequestId } from './lib/request-context.js';
import { createMailer, type Mailer } from './lib/mailer.js';
import type { TokenService } from './lib/tokens.js';
import { openFileStorage } from './lib/open-file-storage.js';
import type { FileStorage } from './lib/storage.js';
import { removalsAfterCommit } from './lib/unit-files.js';
import { createImportsRepository } from './modules/imports/imports.repository.js';
import { createImportsService } from './modules/imports/imports.service.js';
import { createProjectsService } from './modules/projects/projects.service.js';
import { createCaseAccess } from './modules/cases/case-access.js';
import { createCaseMediaService } from './modules/cases/case-media.service.js';
import { createCasePreviewsService } from './modules/cases/case-previews.service.js';
import { createCaseTransfersService } from './modules/cases/case-transfers.service.js';
import { createCasesService } from './modules/cases/cases.service.js';
import { createModuleLibraryService } from './modules/module-library/module-library.service.js';
import { createElementsService } from './modules/elements/elements.service.js';
import { createAttemptsRepository } from './modules/clinician/attempts.repository.js';
import { createClinicianService } from './modules/clinician/clinician.service.js';
import { createCmesRepository } from './modules/cmes/cmes.repository.js';
import { createParticipantsRepository } from './modules/participants/participants.repository.js';
import { createParticipantsService } from './modules/participants/participants.service.js';
import { createCmesService } from './modules/cmes/cmes.service.js';
import { createCertificateRenderer } from './modules/certificates/certificate-renderer.js';
import { createCertificatesRepository } from './modules/certificates/certificates.repository.js';
import { createCertificatesService } from './modules/certificates/certificates.service.js';
import { createEmailsService } from './modules/emails/emails.service.js';
import { createStatisticsService } from './modules/statistics/statistics.service.js';
import { createSeasonSummariesService } from './modules/season-summaries/season-summaries.service.js';
import { createReportsRepository } from './modules/reports/reports.repository.js';
import { createReportsService } from './modules/reports/reports.service.js';
import { createSurveysService } from './modules/surveys/surveys.service.js';
import { createResourceProcessing } from './modules/resources/resource-processing.js';
import { copyCaseResources, createResourcesService } from './modules/resources/resources.service.js';
import { createAuditEventsService } from './modules/audit/audit-events.service.js';
import type { CheckpointBook } from './modules/audit/audit-checkpoints.js';
import type { SystemRecorder } from './modules/audit/call-recorder.service.js';
import { createSignedLinks } from './lib/signed-links.js';
import { createSessionsRepository } from './modules/auth/sessions.repository.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { createOidcProviderClient } from './modules/auth/oidc/oidc-provider-client.js';
import { createOidcSignIn } from './modules/auth/oidc/oidc-sign-in.js';
import { createOidcTransactions } from './modules/auth/oidc/oidc-transaction.js';
import { createClientsRepository } from './modules/clients/clients.repository.js';
import { createClientsService } from './modules/clients/clients.service.js';
import { createUserManagementRepository, createUsersRepository } from './modules/users/users.repository.js';
import { createUserManagementService } from './modules/users/user-management.service.js';
import { createUsersService } from './modules/users/users.service.js';

/**
 * Every module's services, wired to one another, with the import runners they bring. The
 * onClose hooks of what holds work or connections open are added here, with what they close.
 */
export function createAppServices(
  app: FastifyInstance,
  deps: {
    config: Config;
    database: Database;
    clock: Clock;
    tokens: TokenService;
    storage?: FileStorage;
    mailer?: Mailer;
    /** The audit chain's checkpoints, written by the sealer too (app.ts). */
    auditCheckpoints: CheckpointBook;
    /** Records the app's own work in the audit trail (app.ts). */
    audit: SystemRecorder;
  },
) {
  const { config, database, clock, tokens } = deps;
  // The unit of work's handle (app.ts, db/unit-of-work.ts): inside a call that changes state,
  // every statement through it runs in the call's transaction, with its audit event.
  const { db } = database;
  // One calendar for the whole app: a "day" (a case unlocking, a season ending, a completion
  // counted, an email due) is a day in the schedule's time zone.
  const timeZone = config.scheduleTimeZone;
  // A file is removed once the unit of work that removes its record has committed (lib/unit-files.ts).
  const storage = removalsAfterCommit(deps.storage ?? openFileStorage(config.storage));
  const imports = createImportsService({
    imports: createImportsRepository(db),
    storage,
    clock,
    log: app.log,
    leaseMs: config.importLeaseSeconds * 1000,
    maxAttempts: config.importMaxAttempts,
    requestId: currentRequestId,
    audit: deps.audit,
  });
  const clientsService = createClientsService({ clients: createClientsRepository(db), clock });
  imports.registerRunner('CAP', (context) => clientsService.importCapRoster(context));
  const usersRepository = createUsersRepository(db);
  const usersService = createUsersService({
    users: usersRepository,
    clientExists: (id) => clientsService.exists(id),
  });
  const mailer =
    deps.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.smtpFrom, log: app.log, dkim: config.dkim });
  const authService = createAuthService({
    users: usersService,
    sessions: createSessionsRepository(db),
    db,
    tokens,
    clock,
    mailer,
    settings: config,
    log: app.log,
    audit: deps.audit,
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
  const projectsService = createProjectsService({ db, clients: clientsService, clock, timeZone });
  const emailsService = createEmailsService({ db, projects: projectsService, clock });
  const cmesService = createCmesService({ cmes: createCmesRepository(db), projects: projectsService, clock });
  const certificateRenderer = createCertificateRenderer({ log: app.log });
  // Its drawing process ends with the app.
  app.addHook('onClose', () => certificateRenderer.close());
  const certificatesService = createCertificatesService({
    certificates: createCertificatesRepository(db),
    projects: projectsService,
    pdf: certificateRenderer,
    clock,
    publicUrl: config.publicUrl,
  });
  const participantsService = createParticipantsService({
    participants: createParticipantsRepository(db),
    projects: projectsService,
    imports,
    clients: clientsService,
    importDatabase: { db, singleConnection: database.kind === 'pglite' },
    clock,
  });
  const elementsService = createElementsService({ db, projects: projectsService, imports });
  const caseAccess = createCaseAccess({ db, projects: projectsService, clock, timeZone });
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
  const caseMedia = createCaseMediaService({ db, access: caseAccess, storage, clock, timeZone });
  const moduleLibraryService = createModuleLibraryService({
    db,
    cases: casesService,
    transfers: caseTransfers,
    clock,
  });
  imports.registerRunner('SUMMARY', (context) => elementsService.runKeyTakeawaysImport(context));
  imports.registerRunner('ANSWER_TAGS', (context) => elementsService.runAnswerTagsImport(context));
  const seasonSummaries = createSeasonSummariesService({ db, projects: projectsService, storage, clock });
  const surveysService = createSurveysService({ db, projects: projectsService, clock });
  const clinicianService = createClinicianService({
    attempts: createAttemptsRepository(db),
    cases: casesService,
    images: caseMedia,
    projects: projectsService,
    users: usersService,
    summaries: seasonSummaries,
    surveys: surveysService,
    clock,
    timeZone,
  });
  imports.registerRunner('PARTICIPANTS', (context) => participantsService.runImport(context));
  imports.registerRunner('NEW_USERS', (context) => participantsService.runNewUsersImport(context));
  imports.registerMaintenance(() => participantsService.refreshStaleSearch());

  const statisticsService = createStatisticsService({
    db,
    projects: projectsService,
    clock,
    timeZone,
    cacheSeconds: config.statisticsCacheSeconds,
  });

  const reportsService = createReportsService({
    reports: createReportsRepository(db),
    projects: projectsService,
    surveys: surveysService,
    statistics: statisticsService,
    certificates: certificatesService,
    clock,
    timeZone,
  });

  const resourceProcessing = createResourceProcessing({ db, storage, clock, log: app.log, audit: deps.audit });
  // Its drawing thread ends with the app.
  app.addHook('onClose', () => resourceProcessing.close());
  const resourcesService = createResourcesService({
    db,
    storage,
    clock,
    timeZone,
    links: createSignedLinks(config.sessionSecret, 'pss-resource-file'),
    linkTtlSeconds: config.resourceLinkTtlMinutes * 60,
    processing: resourceProcessing,
    cases: casesService,
    attempts: clinicianService,
  });

  return {
    storage,
    mailer,
    imports,
    clientsService,
    usersService,
    authService,
    oidcSignIn,
    userManagement,
    projectsService,
    emailsService,
    cmesService,
    certificatesService,
    participantsService,
    elementsService,
    casesService,
    caseTransfers,
    casePreviews,
    caseMedia,
    moduleLibraryService,
    seasonSummaries,
    clinicianService,
    statisticsService,
    surveysService,
    reportsService,
    resourceProcessing,
    resourcesService,
    auditEventsService: createAuditEventsService({
      db,
      clock,
      key: config.auditSigningKey,
      checkpoints: deps.auditCheckpoints,
    }),
  };
}

export type AppServices = ReturnType<typeof createAppServices>;
