/**
 * The texts of the account pages reached by a link or a sign-out, each loaded on demand: the
 * page an unlock link opens (/unlock-account, issue #46), the page a reminder's unsubscribe link
 * leads to (/unsubscribe, issue #47), /logged-out and /unauthorized. They
 * come with those pages (./account-pages.ts), not with the sign-in screen, which stays within
 * its budget (120 kB).
 */
export const accountPageTexts = {
  signedOut: {
    title: 'You are signed out',
    body: 'Your session has ended. Sign in again to continue.',
  },
  notAuthorized: {
    title: 'Please sign in',
    body: 'You are not authorized to see this page. Please log in.',
  },
  unlock: {
    title: 'Unlock your account',
    body:
      'Too many failed sign-ins locked your account. Unlock it here, then sign in as usual. If the failed ' +
      'sign-ins were not yours, consider choosing a new password.',
    noLink: 'Open this page with the link from the email that told you your account was locked.',
    button: 'Unlock my account',
    doneTitle: 'Your account is unlocked',
    doneBody: 'You can sign in again.',
    staffSignIn: 'Staff sign-in',
    participantSignIn: 'Participant sign-in',
  },
  // The dashboard's notice of a project whose reminders the participant turned off (its
  // module registers these texts as it loads: few participants ever see it).
  reminders: {
    off: 'You turned off this project’s reminder emails on {{date}}.',
    turnOn: 'Turn reminders back on',
    backOn: 'Reminder emails are on again.',
  },
  unsubscribe: {
    title: 'Stop reminder emails',
    body:
      'Stop this project’s reminder emails? You will still get the emails that bring news: your link, a new ' +
      'season, a results summary, a certificate. You can turn reminders back on from your dashboard.',
    noLink: 'Open this page with the unsubscribe link from a reminder email.',
    button: 'Stop reminders',
    doneTitle: 'No more reminders from this project',
    doneBody: 'You can turn them back on from your dashboard.',
    dashboard: 'Go to my dashboard',
  },
};
