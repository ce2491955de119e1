import { errorCatalogue, type ErrorCode } from '@pss/contract';

const errors = Object.fromEntries(
  (Object.keys(errorCatalogue) as ErrorCode[]).map((code) => [code, errorCatalogue[code].message]),
) as Record<ErrorCode, string>;

export const en = {
  app: {
    title: 'Patient Simulation Platform',
    signedInAs: 'Signed in as {{name}}',
    signOut: 'Sign out',
    loading: 'Loading…',
    skipToContent: 'Skip to content',
  },
  tabs: {
    projectManagement: 'Project Management',
    userManagement: 'User Management',
    surveyTemplates: 'Survey Templates',
    resourceLibrary: 'Resource Library',
    moduleLibrary: 'Module Library',
  },
  auth: {
    chooseFlow: 'How do you sign in?',
    clientAdministrator: 'Client administrator',
    clientAdministratorHint: 'You manage projects and participants for your organisation.',
    providerEmployee: 'Provider employee',
    providerEmployeeHint: 'You work for the provider and manage every client.',
    email: 'Email',
    password: 'Password',
    signIn: 'Sign in',
    loggedOutToast: 'You have been signed out.',
    loggedOutTitle: 'You are signed out',
    loggedOutBody: 'Your session has ended. Sign in again to continue.',
    unauthorizedTitle: 'Please sign in',
    unauthorizedBody: 'You are not authorized to see this page. Please log in.',
    signInAgain: 'Sign in',
    returning: 'Completing sign-in…',
    inactiveToast: 'You were signed out after a period of inactivity.',
  },
  home: {
    title: 'Clinical case simulations for clinicians',
    body: 'Run case simulations in seasons and rounds, follow progress and award CME credit.',
    signIn: 'Sign in',
    continue: 'Continue to the app',
  },
  notFound: {
    title: 'Page not found',
    body: 'There is nothing at this address.',
    back: 'Go to the start page',
  },
  table: {
    selectAll: 'Select all rows',
    selectRow: 'Select row',
    selected: '{{count}} selected',
    empty: 'Nothing here yet.',
    retry: 'Try again',
    search: 'Search',
    page: 'Page {{page}} of {{pages}}',
    firstPage: 'First page',
    previousPage: 'Previous page',
    nextPage: 'Next page',
    lastPage: 'Last page',
    sortBy: 'Sort by {{column}}',
  },
  clients: {
    name: 'Client name',
    capId: 'CAP ID',
    capStatus: 'CAP status',
    createdAt: 'Created',
    caption: 'Clients',
    searchPlaceholder: 'Search by name or CAP ID',
    empty: 'No clients yet.',
    noMatches: 'No clients match this search.',
    details: 'Client details',
  },
  errors,
  validation: {
    required: 'This field is required.',
    email: 'Please enter a valid email address.',
  },
};

export type Translations = typeof en;
