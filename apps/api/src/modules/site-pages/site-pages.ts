import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { serviceRoutes, type SitePage, type SitePageNameValue } from '@pss/contract';
import { contractRoutes } from '../../lib/contract-routes.js';
import { escapeHtml } from '../../lib/html.js';
import { sanitizeRichText } from '../../lib/rich-text.js';

/**
 * Privacy Policy, Terms of Use and Support. An operator puts their own text in
 * `DATA_DIR/pages/<name>.html` (read on every call, so an edit shows without a restart;
 * sanitised like every rich text); otherwise the written default is shown. `{email}` and
 * `{phone}` in either become the support contact that emails use.
 */
const titles: Record<SitePageNameValue, string> = {
  'privacy-policy': 'Privacy Policy',
  'terms-of-use': 'Terms of Use',
  support: 'Support',
};

const defaults: Record<SitePageNameValue, string> = {
  'privacy-policy':
    '<p>This platform keeps what a clinical programme needs to run its case simulations: your name, ' +
    'professional details and email address as your programme gave them, and the answers, scores and ' +
    'survey responses you give.</p>' +
    '<p>Your programme’s administrators see your progress and answers to report on the programme. Your ' +
    'data is not sold or shared for advertising. Sign-in links and passwords are never written to logs.</p>' +
    '<p>To see, correct or remove your data, write to {email}.</p>',
  'terms-of-use':
    '<p>The cases on this platform are simulations for education. They are not medical advice about any ' +
    'real patient.</p>' +
    '<p>Your account is yours alone: do not share your password or your dashboard links. Answer the cases ' +
    'yourself; your programme may award credit on the strength of your answers.</p>' +
    '<p>Questions about these terms: {email}.</p>',
  support:
    '<p>Trouble signing in, a case that will not open, or a question about your programme? Write to ' +
    '{email} or call {phone}; say which programme you take part in.</p>' +
    '<p>If a sign-in link has expired, ask for a new one on the sign-in page.</p>',
};

export function registerSitePageRoutes(
  app: FastifyInstance,
  options: { dataDir: string; support: { email: string; phone: string } },
): void {
  const { email, phone } = options.support;

  async function operatorText(name: SitePageNameValue): Promise<string | null> {
    try {
      return await readFile(path.join(options.dataDir, 'pages', `${name}.html`), 'utf8');
    } catch {
      return null;
    }
  }

  contractRoutes(app)(
    serviceRoutes.page,
    {
      tags: ['Settings'],
      summary: 'A legal or support page: privacy-policy, terms-of-use or support',
      description:
        'The operator’s text from DATA_DIR/pages/{name}.html when that file exists, otherwise a written default; ' +
        'sanitised either way. `{email}` and `{phone}` become SUPPORT_EMAIL and SUPPORT_PHONE.',
    },
    async (request): Promise<SitePage> => {
      const name = request.params.name;
      const own = await operatorText(name);
      const contact = (html: string) =>
        html
          .replaceAll('{email}', `<a href="mailto:${escapeHtml(email)}">${escapeHtml(email)}</a>`)
          // Without a phone number the sentence still reads: "call your programme".
          .replaceAll('{phone}', phone ? escapeHtml(phone) : 'your programme’s administrators');
      return {
        name,
        title: titles[name],
        body: sanitizeRichText(contact(own ?? defaults[name])),
        support_email: email,
        support_phone: phone,
        customised: own !== null,
      };
    },
  );
}
