import { defaultFallback, defineEmailType, letter } from './email-type.js';

/**
 * The Certificate Email (issue #37): queued when a CME certificate is issued, in the same
 * transaction (apps/api/src/db/certificate-emails.ts), never by the schedule's rules or by hand —
 * it names that certificate, so "Send now" has none to name (a test send fills in a sample one).
 */
export const certificateIssuedEmail = defineEmailType({
  type: 'certificate_issued',
  name: 'Certificate Email',
  project: true,
  season: false,
  sending: 'triggered',
  condition: 'certificate',
  reminder: false,
  defaults: {
    subject: '{project_name}: your CME certificate',
    body: letter([
      'Congratulations: your certificate for {project_name} is ready. CME credits earned: {credits}.',
      'Download it as a PDF from your dashboard. Anyone can check that it is genuine at {certificate_link} ' +
        '(certificate {certificate_code}).',
    ]),
    buttonText: 'Get my certificate',
    dashboardUrlText: defaultFallback,
  },
  simulator: null,
});
