import { defaultFallback, defineEmailType, letter } from './email-type.js';

/**
 * A season's own Season Summary Launch Email, sent by hand only. When a season's Results Summary
 * is posted the schedule already sends its summary launch (the project's, or the season's
 * `summary_launch` variant for returning participants), so scheduling this as well would send
 * everyone two emails that day.
 */
export const seasonSummaryLaunchEmail = defineEmailType({
  type: 'season_summary_launch',
  name: 'Season Summary Launch Email',
  project: false,
  season: true,
  sending: 'manual-only',
  condition: 'summary-posted',
  reminder: false,
  defaults: {
    subject: '{project_name}: the {season_name} summary is ready',
    body: letter(['The summary of {season_name} is ready on your dashboard.']),
    buttonText: 'See the summary',
    dashboardUrlText: defaultFallback,
  },
  simulator: null,
});
