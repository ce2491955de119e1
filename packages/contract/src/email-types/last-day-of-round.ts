import { defaultFallback, defineEmailType, letter } from './email-type.js';

/** The Last Day of Round Email, on the last day of a round but the season's last, to those with cases left. */
export const lastDayOfRoundEmail = defineEmailType({
  type: 'last_day_of_round',
  name: 'Last Day of Round Email',
  project: true,
  season: false,
  sending: 'scheduled',
  condition: 'round-unfinished',
  reminder: true,
  defaults: {
    subject: '{project_name}: today is the last day of round {round_number}',
    body: letter(['Round {round_number} closes today. There is still time to finish your cases.']),
    buttonText: 'Finish my cases',
    dashboardUrlText: defaultFallback,
  },
  simulator: { label: 'last day', colour: '#d62728' },
});
