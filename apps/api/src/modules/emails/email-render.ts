import { certificateVerifyPath, type emailPlaceholders } from '@pss/contract';
import { escapeHtml } from '../../lib/html.js';
import { sanitizeRichText } from '../../lib/rich-text.js';

/**
 * Makes a template into the message a participant receives: the subject, an HTML part
 * (the body, then the button, then the fallback line under it — "if the button does not
 * work, copy this address" with the address written out — in a plain inline-styled frame
 * that mail programs show alike) and a plain-text part (the body and the button's line:
 * its words and the link; a fallback for a button means nothing in plain text).
 *
 * The body is the one rich text: it passes the sanitiser here (saved bodies passed it on
 * save; a preview brings unsaved ones, and a sanitised body comes out the same). Every
 * other field (subject, button text, dashboard link text) is plain text: filled, then
 * escaped whole, so markup typed into it shows as typed and never reaches the HTML part.
 * Placeholder values are escaped in the body.
 *
 * A paragraph (or list item) of the body whose placeholders all come out empty is left out:
 * "Or call us on {phone}." says nothing without a phone, and "or call ." reads broken. The
 * editor and the dry run warn of each placeholder that would be empty (./email-warnings.ts).
 */

export type PlaceholderValues = Record<(typeof emailPlaceholders)[number], string>;

export interface TemplateTexts {
  subject: string;
  body: string;
  buttonText: string;
  dashboardUrlText: string;
}

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

function fill(
  text: string,
  values: PlaceholderValues,
  escape: (value: string) => string,
  link: string,
  anchor?: (url: string) => string,
): string {
  return text.replace(/\{([a-z_]+)\}/g, (whole, name: string) => {
    if (name === 'dashboard_link') return link;
    const value = (values as Record<string, string | undefined>)[name];
    if (value === undefined) return whole;
    // In the body the certificate's page is a link to follow, as the dashboard's is.
    if (name === 'certificate_link' && anchor && value) return anchor(value);
    return escape(value);
  });
}

type CertificateValues = Pick<PlaceholderValues, 'certificate_link' | 'certificate_code' | 'credits'>;

/**
 * The certificate's placeholders: its public verification page (`/verify/{code}`, which
 * anyone may open), its code and its credits ("1.5"); empty for an email without one.
 */
export function certificateValues(
  publicUrl: string,
  certificate: { code: string; credits: number } | null,
): CertificateValues {
  if (!certificate) return { certificate_link: '', certificate_code: '', credits: '' };
  return {
    certificate_link: publicUrl + certificateVerifyPath(certificate.code),
    certificate_code: certificate.code,
    credits: certificate.credits.toLocaleString('en-US', { maximumFractionDigits: 2 }),
  };
}

/** A long date as people read it in an email ("April 25, 2026"). */
export function longDate(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', {
    timeZone: 'UTC',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  });
}

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ', apos: "'" };

/** The plain-text part of an HTML body: paragraphs and list items on their own lines, links as "text (url)". */
export function htmlToText(html: string): string {
  return html
    .replace(/<a\s[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi, (_m, href: string, inner: string) => {
      const label = inner.replace(/<[^>]+>/g, '');
      return label.trim() === href.trim() || !label.trim() ? href : `${label} (${href})`;
    })
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li[^>]*>/gi, '- ')
    .replace(/<\/(p|h[1-6]|blockquote|li|ul|ol)>/gi, (_m, tag: string) => (tag.toLowerCase() === 'li' ? '\n' : '\n\n'))
    .replace(/<[^>]+>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|nbsp|apos);/g, (_m, name: string) => entities[name]!)
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The placeholders a text names, each once (`{dashboard_link}` included). */
export function placeholdersIn(text: string): string[] {
  return [...new Set([...text.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]!))];
}

/** The body without its paragraphs and list items whose every placeholder is empty. */
function withoutEmptyBlocks(body: string, values: PlaceholderValues): string {
  const known = values as Record<string, string | undefined>;
  return body.replace(/<(p|li)(\s[^>]*)?>([\s\S]*?)<\/\1>/gi, (block, _tag, _attrs, inner: string) => {
    const names = placeholdersIn(inner);
    // The dashboard link is never empty, and an unknown name is left as typed: neither empties a block.
    return names.length > 0 && names.every((name) => known[name] === '') ? '' : block;
  });
}

/** A plain-text field with its placeholders filled, on one line. */
function plainLine(text: string, values: PlaceholderValues, link: string): string {
  return fill(text, values, (v) => v, link)
    .replace(/\s+/g, ' ')
    .trim();
}

export function renderEmail(template: TemplateTexts, values: PlaceholderValues, link: string): RenderedEmail {
  const safeLink = escapeHtml(link);
  // A long link breaks anywhere rather than widening the card on a phone.
  const anchor = (url: string) => `<a href="${escapeHtml(url)}" style="word-break:break-all">${escapeHtml(url)}</a>`;
  // One line, so no header can be slipped in.
  const subject = plainLine(template.subject, values, link);
  const body = withoutEmptyBlocks(sanitizeRichText(template.body), values);
  const bodyHtml = fill(body, values, escapeHtml, anchor(link), anchor);
  const buttonText = plainLine(template.buttonText, values, link);
  const urlText = plainLine(template.dashboardUrlText, values, link);

  const html =
    `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>` +
    `<body style="margin:0;padding:24px;background:#f4f6f8;font-family:Arial,Helvetica,sans-serif;color:#1f2933">` +
    `<div style="max-width:600px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px;line-height:1.5">` +
    bodyHtml +
    `<p style="margin:24px 0"><a href="${safeLink}" style="display:inline-block;background:#1c7ed6;color:#ffffff;` +
    `padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:bold">${escapeHtml(buttonText)}</a></p>` +
    // The fallback comes after the button it stands in for, with the address written out.
    (urlText ? `<p style="font-size:13px;color:#52606d">${escapeHtml(urlText)} ${anchor(link)}</p>` : '') +
    `</div></body></html>`;

  // Filled as HTML (values escaped), then read back as text: a name is never taken for a tag.
  const bodyText = htmlToText(fill(body, values, escapeHtml, safeLink, anchor));
  // The link once: the button's words and the address. A fallback line would only repeat it.
  const buttonLine = `${buttonText}: ${link}`;
  const text = [bodyText, buttonLine].filter(Boolean).join('\n\n') + '\n';
  return { subject, html, text };
}
