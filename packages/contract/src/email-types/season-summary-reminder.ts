import { defaultFallback, defineEmailType, letter } from './email-type.js';

/**
 * A season's own Season Summary Reminder Email, sent by hand only, like its launch (the schedule
 * sends the summary's reminder a week after posting). Not a reminder in the unsubscribe's sense:
 * an administrator chose to send it.
 */
export const seasonSummaryReminderEmail = defineEmailType({
  type: 'season_summary_reminder',
  name: 'Season Summary Reminder Email',
  project: false,
  season: true,
  sending: 'manual-only',
  condition: 'summary-posted',
  reminder: false,
  defaults: {
    subject: '{project_name}: the {season_name} summary is waiting',
    body: letter(['The summary of {season_name} is waiting on your dashboard.']),
    buttonText: 'See the summary',
    dashboardUrlText: defaultFallback,
  },
  simulator: null,
});
