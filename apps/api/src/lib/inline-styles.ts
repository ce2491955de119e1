import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The page's own style sheets written into it. A first screen named several small sheets, each
 * a request of its own: over HTTP/1.1 on a phone's network (six requests at a time, a long
 * round trip each) they cost a round trip or two before the first paint, and Lighthouse
 * scored every screen higher with them inline (docs/benchmarks.md, "Sixth pass"). The cost:
 * the sheets come with every page load instead of from the cache; the app is one page, loaded
 * once a visit.
 *
 * Each link becomes the sheet's text in a `<style>` and the same link marked `disabled`,
 * which browsers do not fetch: Vite's loader looks for a link with the sheet's href before
 * it fetches a screen's sheets, finds it, and fetches nothing.
 */
const STYLE_SHEET_LINK = /<link rel="stylesheet"(?: crossorigin)? href="(\/assets\/[\w.-]+\.css)">/g;

/** Sheets larger than this stay links; the screens' own are well under it. */
const MAX_INLINE_SHEET = 64 * 1024;

export function inlineStyleSheets(html: string, webDistDir: string): string {
  return html.replace(STYLE_SHEET_LINK, (link, href: string) => {
    const text = inlinableSheet(path.join(webDistDir, href));
    return text === null ? link : `<style>${text}</style><link rel="stylesheet" disabled href="${href}">`;
  });
}

/** A sheet's text, or null if it must stay a link: missing, large, or reading files beside it. */
function inlinableSheet(file: string): string | null {
  if (!existsSync(file)) return null;
  const text = readFileSync(file, 'utf8');
  if (text.length > MAX_INLINE_SHEET) return null;
  // `url(...)` relative to /assets/ would resolve against the page's path once inline; data: is fine.
  if (/url\((?!\s*["']?data:)/i.test(text)) return null;
  // A sheet that could close the <style> it is written into.
  if (/<\/style/i.test(text)) return null;
  return text;
}
