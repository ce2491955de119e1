import { extensionOf } from './resource-content.js';

/** A link as it is kept: the address parsed and written back (`HTTP://Example.org` → `http://example.org/`). */
export function normaliseLink(link: string): string {
  return new URL(link.trim()).href;
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
