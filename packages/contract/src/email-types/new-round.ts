import { defaultFallback, defineEmailType, letter } from './email-type.js';

/** The New Round Transition Email, on the first day of rounds 2–4, to those already taking part with cases of it. */
export const newRoundEmail = defineEmailType({
  type: 'new_round',
  name: 'New Round Transition Email',
  project: true,
  season: false,
  sending: 'scheduled',
  condition: 'round-unfinished',
  reminder: true,
  defaults: {
    subject: '{project_name}: round {round_number} has begun',
    body: letter(['Round {round_number} of {season_name} has begun, with new patient cases for you.']),
    buttonText: 'See the new cases',
    dashboardUrlText: defaultFallback,
  },
  simulator: { label: 'new round', colour: '#2ca02c' },
});
