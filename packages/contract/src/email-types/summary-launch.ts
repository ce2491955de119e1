import { defaultFallback, defineEmailType, letter } from './email-type.js';

/**
 * The Summary Launch Email, the day a season's Results Summary is posted (or the next), to those
 * who completed the season: the project's to a first season, the season's variant to a returning
 * participant.
 */
export const summaryLaunchEmail = defineEmailType({
  type: 'summary_launch',
  name: 'Project Summary Launch Email',
  project: true,
  season: true,
  sending: 'scheduled',
  condition: 'summary-posted',
  reminder: false,
  defaults: {
    subject: '{project_name}: your results are ready',
    body: letter(['The results of {season_name} are ready: see how your answers compare with your peers.']),
    buttonText: 'See my results',
    dashboardUrlText: defaultFallback,
  },
  simulator: { label: 'summary', colour: '#8c564b' },
});
