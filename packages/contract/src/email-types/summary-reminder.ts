import { defaultFallback, defineEmailType, letter } from './email-type.js';

/** The Summary Reminder Email, a week after the summary is posted, to those not on the platform since. */
export const summaryReminderEmail = defineEmailType({
  type: 'summary_reminder',
  name: 'Project Summary Reminder Email',
  project: true,
  season: true,
  sending: 'scheduled',
  condition: 'summary-posted',
  reminder: true,
  defaults: {
    subject: '{project_name}: your results are waiting',
    body: letter(['Your results for {season_name} are waiting on your dashboard.']),
    buttonText: 'See my results',
    dashboardUrlText: defaultFallback,
  },
  simulator: { label: 'summary rem.', colour: '#e377c2' },
});
