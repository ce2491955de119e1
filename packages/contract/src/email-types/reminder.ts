import { defaultFallback, defineEmailType, letter } from './email-type.js';

/** The Reminder Email, every second day of a round while the participant has cases of it left. */
export const reminderEmail = defineEmailType({
  type: 'reminder',
  name: 'Reminder Email',
  project: true,
  season: false,
  sending: 'scheduled',
  condition: 'round-unfinished',
  reminder: true,
  defaults: {
    subject: '{project_name}: your cases for round {round_number} are waiting',
    body: letter(['A friendly reminder: round {round_number} closes on {round_end_date}. Your cases are waiting.']),
    buttonText: 'Continue my cases',
    dashboardUrlText: defaultFallback,
  },
  simulator: { label: 'reminder', colour: '#ff7f0e' },
});
