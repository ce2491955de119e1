import { defaultFallback, defineEmailType, letter } from './email-type.js';

/** The Last Day of Last Round Email, on the last day of the season's last round, to those with cases left. */
export const lastRoundEmail = defineEmailType({
  type: 'last_round',
  name: 'Last Day of Last Round Email',
  project: true,
  season: false,
  sending: 'scheduled',
  condition: 'round-unfinished',
  reminder: true,
  defaults: {
    subject: '{project_name}: the last round closes today',
    body: letter(['The last round of {season_name} closes today. Finish your cases to complete the season.']),
    buttonText: 'Finish my cases',
    dashboardUrlText: defaultFallback,
  },
  simulator: { label: 'last round', colour: '#9467bd' },
});
