import type { EmailWarning } from '@pss/contract';
import { placeholdersIn, type PlaceholderValues, type TemplateTexts } from './email-render.js';

/** Why each placeholder may come out empty, as the editor and the dry run say it. */
const reasons: Record<string, string> = {
  phone: 'no support phone is set (the project’s, its client’s or the server’s SUPPORT_PHONE)',
  email: 'no support address is set',
  season_name: 'this email speaks of no season (the project has no season with rounds)',
  round_number: 'this email speaks of no round',
  round_end_date: 'this email speaks of no round',
  certificate_link: 'only the Certificate Email names a certificate',
  certificate_code: 'only the Certificate Email names a certificate',
  credits: 'only the Certificate Email names a certificate',
  first_name: 'the participant has no first name',
  last_name: 'the participant has no last name',
  salutation: 'the participant has no salutation',
};

/**
 * The placeholders a template's texts name that would come out empty with these values,
 * each once, with why: the preview's and the dry run's warnings. (The renderer leaves out a
 * paragraph whose placeholders are all empty, so the words around them go too.)
 */
export function emptyPlaceholderWarnings(texts: TemplateTexts, values: PlaceholderValues): EmailWarning[] {
  const known = values as Record<string, string | undefined>;
  const named = placeholdersIn([texts.subject, texts.body, texts.buttonText, texts.dashboardUrlText].join('\n'));
  return named
    .filter((name) => known[name] === '')
    .map((name) => ({
      placeholder: `{${name}}`,
      message:
        `{${name}} comes out empty: ${reasons[name] ?? 'it has no value here'}. ` +
        'A paragraph whose placeholders are all empty is left out of the email.',
    }));
}
