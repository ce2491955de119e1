import type { ComponentType } from 'react';
import { createScreenRouter, Navigate, Outlet, type ScreenRoute } from '../lib/screen-router';
import { FullPageLoader } from '../components/full-page-loader';
import { SessionProvider } from '../lib/session/session-provider';
import { RequireSuperadmin } from './superadmin-gate';
import type { StaffScreen } from './staff-screens';

/**
 * A screen whose code is fetched the first time its route matches (React Router's `lazy`),
 * so the first visit downloads the shell and that one screen, not every feature. The
 * router keeps the current screen up until the next one has arrived.
 */
function screen(load: () => Promise<ComponentType>): Pick<ScreenRoute, 'lazy'> {
  return { lazy: async () => ({ Component: await load() }) };
}

/** A provider-staff screen: its code is fetched the same way, behind the superadmin gate. */
function superadminScreen(load: () => Promise<ComponentType>): Pick<ScreenRoute, 'lazy'> {
  return {
    lazy: async () => {
      const Screen = await load();
      return { element: <RequireSuperadmin>{() => <Screen />}</RequireSuperadmin> };
    },
  };
}

/** A staff screen: its code is found through ./staff-screens.ts, fetched with the first of them. */
function staff(name: StaffScreen): () => Promise<ComponentType> {
  return async () => (await import('./staff-screens')).staffScreens[name]();
}

function Root() {
  return (
    <SessionProvider>
      <Outlet />
    </SessionProvider>
  );
}

/** The case screens, under a project or a module library (they read which from the layout). */
const caseRoutes: ScreenRoute[] = [
  { path: 'cases', ...screen(staff('casesPage')) },
  { path: 'cases/new', ...screen(staff('newCasePage')) },
  {
    path: 'cases/case-details/:caseId',
    ...screen(staff('caseEditorPage')),
  },
  {
    path: 'cases/case-details/:caseId/previews',
    ...screen(staff('casePreviewsPage')),
  },
  {
    path: 'cases/case-details/:caseId/previews/new',
    ...screen(staff('takePreviewPage')),
  },
  {
    path: 'cases/case-details/:caseId/previews/:previewId',
    ...screen(staff('previewPage')),
  },
];

export const routes: ScreenRoute[] = [
  // The participants' side, with its own session (spec: clinicians who answer cases).
  {
    ...screen(async () => (await import('../features/clinician/participant-root')).ParticipantRoot),
    HydrateFallback: FullPageLoader,
    children: [
      {
        path: '/participant/sign-in',
        ...screen(async () => (await import('../features/clinician/participant-sign-in-page')).ParticipantSignInPage),
      },
      // Public (spec §2): a participant sets a password from an emailed link, without a session.
      {
        path: '/create-password',
        ...screen(async () => (await import('../features/clinician/create-password-page')).CreatePasswordPage),
      },
      {
        path: '/submit-password',
        ...screen(async () => (await import('../features/clinician/create-password-page')).PasswordSavedPage),
      },
      {
        path: '/participant/link/:token',
        ...screen(async () => (await import('../features/clinician/participant-link-page')).ParticipantLinkPage),
      },
      {
        ...screen(async () => (await import('../features/clinician/participant-layout')).ParticipantLayout),
        children: [
          {
            path: '/participant',
            ...screen(async () => (await import('../features/clinician/dashboard-page')).DashboardPage),
          },
          {
            path: '/participant/cases/:attemptId',
            ...screen(async () => (await import('../features/clinician/case-page')).ParticipantCasePage),
          },
        ],
      },
    ],
  },
  {
    element: <Root />,
    HydrateFallback: FullPageLoader,
    children: [
      // Public routes of spec §2: no signed-in user needed.
      { path: '/', ...screen(async () => (await import('./home-page')).HomePage) },
      {
        path: '/privacy-policy',
        ...screen(async () => (await import('../features/site-pages/site-page')).PrivacyPolicyPage),
      },
      {
        path: '/terms-of-use',
        ...screen(async () => (await import('../features/site-pages/site-page')).TermsOfUsePage),
      },
      { path: '/support', ...screen(async () => (await import('../features/site-pages/site-page')).SupportPage) },
      // Public (issue #37): anyone checks a CME certificate by its code.
      { path: '/verify', ...screen(async () => (await import('../features/certificates/verify-page')).VerifyPage) },
      {
        path: '/verify/:code',
        ...screen(async () => (await import('../features/certificates/verify-page')).VerifyPage),
      },
      {
        path: '/login-landing',
        ...screen(async () => (await import('../features/auth/login-landing-page')).LoginLandingPage),
      },
      {
        path: '/keycloak-landing',
        ...screen(async () => (await import('../features/auth/keycloak-landing-page')).KeycloakLandingPage),
      },
      { path: '/logged-out', ...screen(async () => (await import('../features/auth/logged-out-page')).LoggedOutPage) },
      // Public (issue #46): the link mailed to the owner of an account that failed sign-ins locked.
      { path: '/unlock-account', ...screen(async () => (await import('../features/auth/unlock-page')).UnlockPage) },
      // Public (issue #47): where a reminder's unsubscribe link leads a browser; its button unsubscribes.
      {
        path: '/unsubscribe',
        ...screen(async () => (await import('../features/clinician/unsubscribe-page')).UnsubscribePage),
      },
      {
        path: '/unauthorized',
        ...screen(async () => (await import('../features/auth/unauthorized-page')).UnauthorizedPage),
      },
      {
        // The signed-in shell (header, tabs, footer) comes with the first staff screen, not with sign-in.
        ...screen(async () => (await import('./route-gates')).RequireStaff),
        children: [
          {
            path: '/project-management',
            ...superadminScreen(staff('clientsListPage')),
          },
          {
            path: '/user-management',
            ...superadminScreen(staff('usersListPage')),
          },
          {
            path: '/user-management/:id',
            ...superadminScreen(staff('userDetailsPage')),
          },
          {
            path: '/project-management/clients/:clientId',
            ...screen(staff('clientOptionsPage')),
          },
          {
            // Provider staff read every event, a client administrator their client's (the API scopes it).
            path: '/audit-log',
            ...screen(staff('auditLogPage')),
          },
          {
            // Every staff member's own second factors.
            path: '/account/security',
            ...screen(staff('securityPage')),
          },
          {
            path: '/survey-templates',
            ...superadminScreen(staff('surveyTemplatesPage')),
          },
          {
            path: '/survey-templates/new',
            ...superadminScreen(staff('surveyTemplateEditorPage')),
          },
          {
            path: '/survey-templates/:id',
            ...superadminScreen(staff('surveyTemplateEditorPage')),
          },
          {
            path: '/resource-library',
            ...superadminScreen(staff('resourceLibraryPage')),
          },
          {
            path: '/resource-library/new',
            ...superadminScreen(staff('newResourcePage')),
          },
          {
            path: '/resource-library/:id',
            ...superadminScreen(staff('resourceDetailsPage')),
          },
          {
            path: '/module-library',
            ...superadminScreen(staff('moduleLibraryPage')),
          },
          {
            path: '/module-library/:id',
            ...superadminScreen(staff('moduleLayout')),
            children: [
              { index: true, element: <Navigate to="cases" replace /> },
              ...caseRoutes,
              {
                path: 'elements',
                ...screen(staff('elementsPage')),
              },
              {
                path: 'projects',
                ...screen(staff('associatedProjectsPage')),
              },
            ],
          },
          {
            path: '/project-management/clients/:clientId/projects/:projectId',
            ...screen(staff('projectLayout')),
            children: [
              {
                index: true,
                ...screen(staff('projectOverview')),
              },
              { path: 'cmes', ...screen(staff('cmesPage')) },
              { path: 'certificates', ...screen(staff('certificatesPage')) },
              {
                path: 'participants',
                ...screen(staff('participantsPage')),
              },
              ...caseRoutes,
              {
                path: 'elements',
                ...screen(staff('elementsPage')),
              },
              { path: 'emails', ...screen(staff('emailsPage')) },
              {
                path: 'emails/edit/:emailId',
                ...screen(staff('emailEditorPage')),
              },
              {
                // The specification's `/emails/editSeasonEmail/{id}/{id2}`: the season, then its email.
                path: 'emails/editSeasonEmail/:seasonId/:emailId',
                ...screen(staff('emailEditorPage')),
              },
              {
                // The Progress Dashboard; its `?season=` names the season shown.
                path: 'progress',
                ...screen(staff('progressPage')),
              },
              {
                // `{id}` is the season's (see SeasonSummaryPage).
                path: 'progress/edit/:id',
                ...screen(staff('seasonSummaryPage')),
              },
              {
                path: 'surveys',
                ...screen(staff('projectSurveysPage')),
              },
              { path: 'history', ...screen(staff('projectHistoryPage')) },
            ],
          },
          { path: '*', ...screen(async () => (await import('./not-found-page')).NotFoundPage) },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createScreenRouter(routes);
}
