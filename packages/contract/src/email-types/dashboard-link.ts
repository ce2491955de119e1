import { defaultFallback, defineEmailType, letter } from './email-type.js';

/**
 * The Dashboard Link Email (issue #47): a participant's own link, sent when an administrator
 * asks ("Send link now" for one participant, or "Send now" for several); it has no day of its
 * own.
 */
export const dashboardLinkEmail = defineEmailType({
  type: 'dashboard_link',
  name: 'Dashboard Link Email',
  project: true,
  season: false,
  sending: 'manual-only',
  condition: 'none',
  reminder: false,
  defaults: {
    subject: '{project_name}: your dashboard link',
    body: letter([
      'Here is your own link to your dashboard in {project_name}, where your patient cases are.',
      'It signs you in once; ask for a new one from the sign-in page whenever you need it.',
    ]),
    buttonText: 'Open my dashboard',
    dashboardUrlText: defaultFallback,
  },
  simulator: null,
});
