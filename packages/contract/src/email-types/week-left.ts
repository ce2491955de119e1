import { defaultFallback, defineEmailType, letter } from './email-type.js';

/** The One Week Left Email, a week before the season's last round ends, to those with cases of it left. */
export const weekLeftEmail = defineEmailType({
  type: 'week_left',
  name: 'One Week Left Email',
  project: true,
  season: false,
  sending: 'scheduled',
  condition: 'round-unfinished',
  reminder: true,
  defaults: {
    subject: '{project_name}: one week left in {season_name}',
    body: letter([
      'The last round of {season_name} closes on {round_end_date}, a week from today. Your cases are waiting.',
    ]),
    buttonText: 'Continue my cases',
    dashboardUrlText: defaultFallback,
  },
  simulator: { label: 'week left', colour: '#17becf' },
});
