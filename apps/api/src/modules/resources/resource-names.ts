import { extensionOf } from './resource-content.js';

/** A link as it is kept: the address parsed and written back (`HTTP://Example.org` → `http://example.org/`). */
export function normaliseLink(link: string): string {
  return new URL(link.trim()).href;
}

/**
 * The form two links are judged the same by (the library holds each once): scheme and host
 * in lower case, no default port, no trailing slash on the path — `https://Example.org:443/guide/`
 * and `https://example.org/guide` are one. The path's case, the query and the fragment are
 * kept: they may name another page. Migration 0031 makes the same key in SQL for the links
 * stored before it.
 */
export function normalLinkKey(link: string): string {
  const href = normaliseLink(link);
  const [, scheme, authority, path, rest] = /^([a-z][a-z0-9+.-]*:)\/\/([^/?#]*)([^?#]*)(.*)$/i.exec(href) ?? [];
  if (scheme === undefined) return href;
  const defaultPort = scheme.toLowerCase() === 'http:' ? /:80$/ : scheme.toLowerCase() === 'https:' ? /:443$/ : null;
  const host = authority!.toLowerCase().replace(defaultPort ?? /$^/, '');
  return `${scheme.toLowerCase()}//${host}${path!.replace(/\/+$/, '')}${rest}`;
}

/**
 * The name a file is kept and served under: the uploader's, without folders or control
 * characters, ending in the extension of what the file really is.
 */
export function storedName(uploaded: string, type: keyof typeof extensionOf): string {
  const base =
    uploaded
      .split(/[\\/]/)
      .pop()!
      // eslint-disable-next-line no-control-regex -- control characters are what is removed
      .replace(/[\u0000-\u001f\u007f"]/g, '')
      .trim()
      .slice(0, 200) || 'resource';
  const extension = extensionOf[type];
  const stem = base.replace(/\.[A-Za-z0-9]{1,5}$/, '');
  return base.toLowerCase().endsWith(extension) ? base : `${stem}${extension}`;
}

/** A resource's name from its file's: the name without its extension. */
export const nameFromFile = (fileName: string) =>
  fileName.replace(/\.[A-Za-z0-9]{1,5}$/, '').slice(0, 200) || 'Resource';
