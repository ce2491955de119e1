import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, Outlet, type RouteObject } from '../lib/router';
import { FullPageLoader } from '../components/full-page-loader';
import { SessionProvider } from '../lib/session/session-provider';
import { RequireSuperadmin } from './superadmin-gate';

/**
 * A screen whose code is fetched the first time its route matches (React Router's `lazy`),
 * so the first visit downloads the shell and that one screen, not every feature. The
 * router keeps the current screen up until the next one has arrived.
 */
function screen(load: () => Promise<ComponentType>): Pick<RouteObject, 'lazy'> {
  return { lazy: async () => ({ Component: await load() }) };
}

/** A provider-staff screen: its code is fetched the same way, behind the superadmin gate. */
function superadminScreen(load: () => Promise<ComponentType>): Pick<RouteObject, 'lazy'> {
  return {
    lazy: async () => {
      const Screen = await load();
      return { element: <RequireSuperadmin>{() => <Screen />}</RequireSuperadmin> };
    },
  };
}

function Root() {
  return (
    <SessionProvider>
      <Outlet />
    </SessionProvider>
  );
}

/** The case screens, under a project or a module library (they read which from the layout). */
const caseRoutes: RouteObject[] = [
  { path: 'cases', ...screen(async () => (await import('../features/cases/cases-page')).CasesPage) },
  { path: 'cases/new', ...screen(async () => (await import('../features/cases/new-case-page')).NewCasePage) },
  {
    path: 'cases/case-details/:caseId',
    ...screen(async () => (await import('../features/cases/case-editor-page')).CaseEditorPage),
  },
  {
    path: 'cases/case-details/:caseId/previews',
    ...screen(async () => (await import('../features/cases/case-previews-page')).CasePreviewsPage),
  },
  {
    path: 'cases/case-details/:caseId/previews/new',
    ...screen(async () => (await import('../features/cases/take-preview-page')).TakePreviewPage),
  },
  {
    path: 'cases/case-details/:caseId/previews/:previewId',
    ...screen(async () => (await import('../features/cases/preview-page')).PreviewPage),
  },
];

export const routes: RouteObject[] = [
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
      {
        path: '/login-landing',
        ...screen(async () => (await import('../features/auth/login-landing-page')).LoginLandingPage),
      },
      {
        path: '/keycloak-landing',
        ...screen(async () => (await import('../features/auth/keycloak-landing-page')).KeycloakLandingPage),
      },
      { path: '/logged-out', ...screen(async () => (await import('../features/auth/logged-out-page')).LoggedOutPage) },
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
            ...superadminScreen(async () => (await import('../features/clients/clients-list-page')).ClientsListPage),
          },
          {
            path: '/user-management',
            ...superadminScreen(async () => (await import('../features/users/users-list-page')).UsersListPage),
          },
          {
            path: '/user-management/:id',
            ...superadminScreen(async () => (await import('../features/users/user-details-page')).UserDetailsPage),
          },
          {
            path: '/project-management/clients/:clientId',
            ...screen(async () => (await import('./client-options-page')).ClientOptionsPage),
          },
          {
            path: '/survey-templates',
            ...superadminScreen(
              async () => (await import('../features/survey-templates/survey-templates-page')).SurveyTemplatesPage,
            ),
          },
          {
            path: '/survey-templates/new',
            ...superadminScreen(
              async () =>
                (await import('../features/survey-templates/survey-template-editor-page')).SurveyTemplateEditorPage,
            ),
          },
          {
            path: '/survey-templates/:id',
            ...superadminScreen(
              async () =>
                (await import('../features/survey-templates/survey-template-editor-page')).SurveyTemplateEditorPage,
            ),
          },
          {
            path: '/resource-library',
            ...superadminScreen(
              async () => (await import('../features/resources/resource-library-page')).ResourceLibraryPage,
            ),
          },
          {
            path: '/resource-library/new',
            ...superadminScreen(async () => (await import('../features/resources/new-resource-page')).NewResourcePage),
          },
          {
            path: '/resource-library/:id',
            ...superadminScreen(
              async () => (await import('../features/resources/resource-details-page')).ResourceDetailsPage,
            ),
          },
          {
            path: '/module-library',
            ...superadminScreen(
              async () => (await import('../features/module-library/module-library-page')).ModuleLibraryPage,
            ),
          },
          {
            path: '/module-library/:id',
            ...superadminScreen(async () => (await import('../features/module-library/module-layout')).ModuleLayout),
            children: [
              { index: true, element: <Navigate to="cases" replace /> },
              ...caseRoutes,
              {
                path: 'elements',
                ...screen(async () => (await import('../features/elements/elements-page')).ElementsPage),
              },
              {
                path: 'projects',
                ...screen(
                  async () =>
                    (await import('../features/module-library/associated-projects-page')).AssociatedProjectsPage,
                ),
              },
            ],
          },
          {
            path: '/project-management/clients/:clientId/projects/:projectId',
            ...screen(async () => (await import('../features/projects/project-layout')).ProjectLayout),
            children: [
              {
                index: true,
                ...screen(async () => (await import('../features/projects/project-overview')).ProjectOverview),
              },
              { path: 'cmes', ...screen(async () => (await import('../features/cmes/cmes-page')).CmesPage) },
              {
                path: 'participants',
                ...screen(async () => (await import('../features/participants/participants-page')).ParticipantsPage),
              },
              ...caseRoutes,
              {
                path: 'elements',
                ...screen(async () => (await import('../features/elements/elements-page')).ElementsPage),
              },
              { path: 'emails', ...screen(async () => (await import('../features/emails/emails-page')).EmailsPage) },
              {
                path: 'emails/edit/:emailId',
                ...screen(async () => (await import('../features/emails/email-editor-page')).EmailEditorPage),
              },
              {
                // The specification's `/emails/editSeasonEmail/{id}/{id2}`: the season, then its email.
                path: 'emails/editSeasonEmail/:seasonId/:emailId',
                ...screen(async () => (await import('../features/emails/email-editor-page')).EmailEditorPage),
              },
              {
                // The Progress Dashboard; its `?season=` names the season shown.
                path: 'progress',
                ...screen(async () => (await import('../features/progress/progress-page')).ProgressPage),
              },
              {
                // `{id}` is the season's (see SeasonSummaryPage).
                path: 'progress/edit/:id',
                ...screen(
                  async () => (await import('../features/season-summaries/season-summary-page')).SeasonSummaryPage,
                ),
              },
              {
                path: 'surveys',
                ...screen(
                  async () => (await import('../features/survey-templates/project-surveys-page')).ProjectSurveysPage,
                ),
              },
            ],
          },
          { path: '*', ...screen(async () => (await import('./not-found-page')).NotFoundPage) },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
