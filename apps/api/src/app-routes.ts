import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { AppServices } from './app-services.js';
import type { AppEmailServices } from './app-emails.js';
import { registerProjectsRoutes } from './modules/projects/projects.routes.js';
import { registerCaseMediaRoutes } from './modules/cases/case-media.routes.js';
import { registerCasePreviewsRoutes } from './modules/cases/case-previews.routes.js';
import { registerCaseTransfersRoutes } from './modules/cases/case-transfers.routes.js';
import { registerCasesRoutes } from './modules/cases/cases.routes.js';
import { registerModuleLibraryRoutes } from './modules/module-library/module-library.routes.js';
import { registerElementsRoutes } from './modules/elements/elements.routes.js';
import { registerClinicianRoutes } from './modules/clinician/clinician.routes.js';
import { registerParticipantsRoutes } from './modules/participants/participants.routes.js';
import { registerEmailsRoutes } from './modules/emails/emails.routes.js';
import { registerEmailSendingRoutes } from './modules/emails/email-sending.routes.js';
import { registerEmailSuppressionsRoutes } from './modules/emails/email-suppressions.routes.js';
import { registerEmailWebhooksRoutes } from './modules/emails/email-webhooks.routes.js';
import { registerEmailUnsubscribeRoutes } from './modules/emails/email-unsubscribe.routes.js';
import { registerParticipantLinksRoutes } from './modules/emails/participant-links.routes.js';
import { registerStatisticsRoutes } from './modules/statistics/statistics.routes.js';
import { registerCmesRoutes } from './modules/cmes/cmes.routes.js';
import { registerCertificatesRoutes } from './modules/certificates/certificates.routes.js';
import { registerSeasonSummariesRoutes } from './modules/season-summaries/season-summaries.routes.js';
import { registerReportsRoutes } from './modules/reports/reports.routes.js';
import { registerAuditEventsRoutes } from './modules/audit/audit-events.routes.js';
import { registerSurveysRoutes } from './modules/surveys/surveys.routes.js';
import { registerResourcesRoutes } from './modules/resources/resources.routes.js';
import { registerSecondFactorRoutes } from './modules/auth/second-factor/second-factor.routes.js';
import { registerAuthRoutes } from './modules/auth/auth.routes.js';
import { registerOidcRoutes } from './modules/auth/oidc/oidc.routes.js';
import { registerClientsRoutes } from './modules/clients/clients.routes.js';
import { registerHealthRoutes, type HealthDeps } from './modules/health/health.routes.js';
import { registerSettingsRoutes } from './modules/settings/settings.routes.js';
import { registerSitePageRoutes } from './modules/site-pages/site-pages.js';
import { registerUserManagementRoutes } from './modules/users/user-management.routes.js';
import { registerUsersRoutes } from './modules/users/users.routes.js';

/** Every module's routes, under /api. */
export async function registerApiRoutes(
  app: FastifyInstance,
  services: AppServices & AppEmailServices,
  config: Config,
  health: HealthDeps,
): Promise<void> {
  const {
    storage,
    imports,
    clientsService,
    usersService,
    authService,
    oidcSignIn,
    userManagement,
    projectsService,
    emailsService,
    emailSending,
    emailUnsubscribe,
    participantLinks,
    emailSuppressions,
    emailWebhooks,
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
    resourcesService,
    auditEventsService,
  } = services;
  await app.register(
    async (api) => {
      registerHealthRoutes(api, health);
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
      registerSecondFactorRoutes(api, { auth: authService }, { secureCookies: config.secureCookies });
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
      registerCertificatesRoutes(api, certificatesService);
      registerEmailsRoutes(api, emailsService);
      registerEmailSendingRoutes(api, emailSending);
      registerEmailUnsubscribeRoutes(api, emailUnsubscribe);
      registerParticipantLinksRoutes(api, participantLinks);
      registerEmailSuppressionsRoutes(api, emailSuppressions);
      registerEmailWebhooksRoutes(api, emailWebhooks);
      registerStatisticsRoutes(api, statisticsService);
      registerParticipantsRoutes(api, participantsService, storage);
      registerCasesRoutes(api, casesService);
      registerCaseTransfersRoutes(api, caseTransfers);
      registerCasePreviewsRoutes(api, casePreviews);
      registerCaseMediaRoutes(api, caseMedia, storage);
      registerModuleLibraryRoutes(api, moduleLibraryService);
      registerElementsRoutes(api, elementsService, storage);
      registerClinicianRoutes(api, clinicianService);
      registerSeasonSummariesRoutes(api, seasonSummaries, storage);
      registerReportsRoutes(api, reportsService);
      registerSurveysRoutes(api, surveysService);
      registerResourcesRoutes(api, resourcesService, storage);
      registerAuditEventsRoutes(api, auditEventsService);
    },
    { prefix: '/api' },
  );
}
