import { defaultFallback, defineEmailType, letter } from './email-type.js';

/**
 * The Initial Launch Email, on the participant's start date or the day after. A participant's
 * first season in the project gets the project's; a returning one the season's own variant.
 */
export const initialEmail = defineEmailType({
  type: 'initial',
  name: 'Initial Launch Email',
  project: true,
  season: true,
  sending: 'scheduled',
  condition: 'started',
  reminder: false,
  defaults: {
    subject: '{project_name}: your patient cases are ready',
    body: letter([
      'Welcome to {project_name}. Your first patient cases are waiting on your dashboard.',
      'Each case takes a few minutes; your answers are saved as you give them.',
    ]),
    buttonText: 'Open my dashboard',
    dashboardUrlText: defaultFallback,
  },
  simulator: { label: 'initial', colour: '#1f77b4' },
});
