import { createBrowserRouter, Navigate, Outlet } from 'react-router';
import { ClientsListPage } from '../features/clients/clients-list-page';
import { KeycloakLandingPage } from '../features/auth/keycloak-landing-page';
import { LoggedOutPage } from '../features/auth/logged-out-page';
import { LoginLandingPage } from '../features/auth/login-landing-page';
import { UnauthorizedPage } from '../features/auth/unauthorized-page';
import { CaseEditorPage } from '../features/cases/case-editor-page';
import { CasePreviewsPage } from '../features/cases/case-previews-page';
import { CasesPage } from '../features/cases/cases-page';
import { NewCasePage } from '../features/cases/new-case-page';
import { PreviewPage } from '../features/cases/preview-page';
import { TakePreviewPage } from '../features/cases/take-preview-page';
import { ElementsPage } from '../features/elements/elements-page';
import { AssociatedProjectsPage } from '../features/module-library/associated-projects-page';
import { ParticipantCasePage } from '../features/participant/case-page';
import { CreatePasswordPage, PasswordSavedPage } from '../features/participant/create-password-page';
import { DashboardPage } from '../features/participant/dashboard-page';
import { ParticipantLayout, ParticipantRoot } from '../features/participant/participant-layout';
import { ParticipantLinkPage } from '../features/participant/participant-link-page';
import { ParticipantSignInPage } from '../features/participant/participant-sign-in-page';
import { ModuleLayout } from '../features/module-library/module-layout';
import { ModuleLibraryPage } from '../features/module-library/module-library-page';
import { CmesPage } from '../features/cmes/cmes-page';
import { ParticipantsPage } from '../features/participants/participants-page';
import { UserDetailsPage } from '../features/users/user-details-page';
import { UsersListPage } from '../features/users/users-list-page';
import { ProjectLayout } from '../features/projects/project-layout';
import { ProjectOverview } from '../features/projects/project-overview';
import { ProjectSectionPending } from '../features/projects/project-section-pending';
import { ClientOptionsPage } from './client-options-page';
import { HomePage } from './home-page';
import { NotFoundPage } from './not-found-page';
import { RequireStaff, RequireSuperadmin } from './route-gates';
import { SessionProvider } from '../lib/session/session-provider';

function Root() {
  return (
    <SessionProvider>
      <Outlet />
    </SessionProvider>
  );
}

/** Sections of a project that later features fill; until then they say so. */
const pendingSections = ['surveys', 'progress', 'emails'] as const;

/** The case screens, under a project or a module library (they read which from the layout). */
const caseRoutes = [
  { path: 'cases', element: <CasesPage /> },
  { path: 'cases/new', element: <NewCasePage /> },
  { path: 'cases/case-details/:caseId', element: <CaseEditorPage /> },
  { path: 'cases/case-details/:caseId/previews', element: <CasePreviewsPage /> },
  { path: 'cases/case-details/:caseId/previews/new', element: <TakePreviewPage /> },
  { path: 'cases/case-details/:caseId/previews/:previewId', element: <PreviewPage /> },
];

export const routes = [
  // The participants' side, with its own session (spec: clinicians who answer cases).
  {
    element: <ParticipantRoot />,
    children: [
      { path: '/participant/sign-in', element: <ParticipantSignInPage /> },
      { path: '/participant/link/:token', element: <ParticipantLinkPage /> },
      {
        element: <ParticipantLayout />,
        children: [
          { path: '/participant', element: <DashboardPage /> },
          { path: '/participant/cases/:attemptId', element: <ParticipantCasePage /> },
          { path: '/create-password', element: <CreatePasswordPage /> },
          { path: '/submit-password', element: <PasswordSavedPage /> },
        ],
      },
    ],
  },
  {
    element: <Root />,
    children: [
      // Public routes of spec §2: no signed-in user needed.
      { path: '/', element: <HomePage /> },
      { path: '/login-landing', element: <LoginLandingPage /> },
      { path: '/keycloak-landing', element: <KeycloakLandingPage /> },
      { path: '/logged-out', element: <LoggedOutPage /> },
      { path: '/unauthorized', element: <UnauthorizedPage /> },
      {
        element: <RequireStaff />,
        children: [
          {
            path: '/project-management',
            element: <RequireSuperadmin>{() => <ClientsListPage />}</RequireSuperadmin>,
          },
          { path: '/user-management', element: <RequireSuperadmin>{() => <UsersListPage />}</RequireSuperadmin> },
          { path: '/user-management/:id', element: <RequireSuperadmin>{() => <UserDetailsPage />}</RequireSuperadmin> },
          { path: '/project-management/clients/:clientId', element: <ClientOptionsPage /> },
          { path: '/module-library', element: <RequireSuperadmin>{() => <ModuleLibraryPage />}</RequireSuperadmin> },
          {
            path: '/module-library/:id',
            element: <RequireSuperadmin>{() => <ModuleLayout />}</RequireSuperadmin>,
            children: [
              { index: true, element: <Navigate to="cases" replace /> },
              ...caseRoutes,
              { path: 'elements', element: <ElementsPage /> },
              { path: 'projects', element: <AssociatedProjectsPage /> },
            ],
          },
          {
            path: '/project-management/clients/:clientId/projects/:projectId',
            element: <ProjectLayout />,
            children: [
              { index: true, element: <ProjectOverview /> },
              { path: 'cmes', element: <CmesPage /> },
              { path: 'participants', element: <ParticipantsPage /> },
              ...caseRoutes,
              { path: 'elements', element: <ElementsPage /> },
              ...pendingSections.map((section) => ({
                path: section,
                element: <ProjectSectionPending sectionKey={section} />,
              })),
            ],
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
