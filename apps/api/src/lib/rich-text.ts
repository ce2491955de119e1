import sanitizeHtml from 'sanitize-html';

/**
 * The one sanitiser for rich text the editor sends (case backgrounds, details sections,
 * feedback…). What the toolbar can make survives; scripts, styles, event handlers and
 * `javascript:` or `data:` links do not. Runs on every save, so stored HTML is safe to show.
 */
const options: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'ul',
    'ol',
    'li',
    'a',
    'h2',
    'h3',
    'h4',
    'blockquote',
    'code',
    'sub',
    'sup',
  ],
  allowedAttributes: { a: ['href', 'target', 'rel'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // Links open in a new tab without handing the opener over.
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: { ...(attribs.href ? { href: attribs.href } : {}), target: '_blank', rel: 'noopener noreferrer' },
    }),
  },
};

export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, options).trim();
}

/** Plain text with every tag removed and entities kept escaped (for names shown as text). */
export function stripTags(html: string): string {
  return sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} });
}
