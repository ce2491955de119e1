import type { ComponentType } from 'react';

/**
 * Where the code of each staff screen is (the screens behind the signed-in shell). Apart from
 * the route table (./router.tsx), which names them, so that the first download of the sign-in
 * and participant screens does not carry where every administrator screen's files are (each
 * `import()` brings the list of the files it needs). It comes with the first staff screen,
 * named in that page for the browser to fetch at once (apps/web/build/bundle-budget.ts).
 */
export const staffScreens = {
  casesPage: async () => (await import('../features/cases/cases-page')).CasesPage,
  newCasePage: async () => (await import('../features/cases/new-case-page')).NewCasePage,
  caseEditorPage: async () => (await import('../features/cases/case-editor-page')).CaseEditorPage,
  casePreviewsPage: async () => (await import('../features/cases/case-previews-page')).CasePreviewsPage,
  takePreviewPage: async () => (await import('../features/cases/take-preview-page')).TakePreviewPage,
  previewPage: async () => (await import('../features/cases/preview-page')).PreviewPage,
  clientsListPage: async () => (await import('../features/clients/clients-list-page')).ClientsListPage,
  usersListPage: async () => (await import('../features/users/users-list-page')).UsersListPage,
  userDetailsPage: async () => (await import('../features/users/user-details-page')).UserDetailsPage,
  clientOptionsPage: async () => (await import('./client-options-page')).ClientOptionsPage,
  surveyTemplatesPage: async () => (await import('../features/surveys/survey-templates-page')).SurveyTemplatesPage,
  surveyTemplateEditorPage: async () =>
    (await import('../features/surveys/survey-template-editor-page')).SurveyTemplateEditorPage,
  resourceLibraryPage: async () => (await import('../features/resources/resource-library-page')).ResourceLibraryPage,
  newResourcePage: async () => (await import('../features/resources/new-resource-page')).NewResourcePage,
  resourceDetailsPage: async () => (await import('../features/resources/resource-details-page')).ResourceDetailsPage,
  moduleLibraryPage: async () => (await import('../features/module-library/module-library-page')).ModuleLibraryPage,
  moduleLayout: async () => (await import('../features/module-library/module-layout')).ModuleLayout,
  elementsPage: async () => (await import('../features/elements/elements-page')).ElementsPage,
  associatedProjectsPage: async () =>
    (await import('../features/module-library/associated-projects-page')).AssociatedProjectsPage,
  projectLayout: async () => (await import('../features/projects/project-layout')).ProjectLayout,
  projectOverview: async () => (await import('../features/projects/project-overview')).ProjectOverview,
  cmesPage: async () => (await import('../features/cmes/cmes-page')).CmesPage,
  certificatesPage: async () => (await import('../features/cmes/certificates-page')).CertificatesPage,
  participantsPage: async () => (await import('../features/participants/participants-page')).ParticipantsPage,
  emailsPage: async () => (await import('../features/emails/emails-page')).EmailsPage,
  emailEditorPage: async () => (await import('../features/emails/email-editor-page')).EmailEditorPage,
  progressPage: async () => (await import('./progress-screen')).ProgressScreen,
  seasonSummaryPage: async () => (await import('../features/season-summaries/season-summary-page')).SeasonSummaryPage,
  projectSurveysPage: async () => (await import('../features/surveys/project-surveys-page')).ProjectSurveysPage,
  projectHistoryPage: async () => (await import('../features/projects/project-history-page')).ProjectHistoryPage,
  auditLogPage: async () => (await import('../features/audit/audit-log-page')).AuditLogPage,
  securityPage: async () => (await import('../features/auth/second-factor/security-page')).SecurityPage,
} satisfies Record<string, () => Promise<ComponentType>>;

export type StaffScreen = keyof typeof staffScreens;
