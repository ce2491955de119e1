import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Precompressed } from './content-encoding.js';
import { inlineStyleSheets } from './inline-styles.js';

/**
 * The web app's index.html for a client-side route. For the screens a first visit lands on,
 * the page names that screen's own chunks as `<link rel="modulepreload">` and their style
 * sheets as `<link rel="stylesheet">`, so the browser fetches them beside the entry instead
 * of after it has run. The build lists them per route pattern in
 * `.vite/route-preloads.json` (apps/web/build/route-preloads.ts). The page's style sheets,
 * Vite's and the screen's, are written into it (./inline-styles.ts).
 * Each variant is made and compressed once, the first time it is asked for.
 */
export interface IndexHtml {
  /** The page for `pathname`, in `encoding` (or as is). */
  body(pathname: string, encoding: Precompressed | undefined): Buffer;
}

interface RoutePreload {
  pattern: string;
  files: string[];
  /** Absent in a build from before style sheets were listed. */
  styles?: string[];
}

/** `/a/:id/b` → a regular expression matching `/a/42/b` (and `/a/42/b/`), nothing more. */
export function patternToRegExp(pattern: string): RegExp {
  const source = pattern
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

function compress(content: Buffer, encoding: Precompressed | undefined): Buffer {
  if (encoding?.encoding === 'br') {
    return brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } });
  }
  if (encoding?.encoding === 'gzip') return gzipSync(content, { level: 9 });
  return content;
}

export function loadIndexHtml(webDistDir: string): IndexHtml {
  const template = readFileSync(path.join(webDistDir, 'index.html'), 'utf8');
  const preloadsFile = path.join(webDistDir, '.vite', 'route-preloads.json');
  const routes = existsSync(preloadsFile)
    ? (JSON.parse(readFileSync(preloadsFile, 'utf8')) as RoutePreload[]).map((route) => ({
        ...route,
        matcher: patternToRegExp(route.pattern),
      }))
    : [];
  const variants = new Map<string, Buffer>();

  // The page of each screen, made once and then compressed for each encoding asked for.
  const pages = new Map<string, Buffer>();
  const htmlFor = (route: RoutePreload | undefined): Buffer => {
    const key = route?.pattern ?? '';
    let page = pages.get(key);
    if (!page) {
      page = Buffer.from(inlineStyleSheets(withPreloads(route), webDistDir));
      pages.set(key, page);
    }
    return page;
  };
  const withPreloads = (route: RoutePreload | undefined): string => {
    const styles = route?.styles ?? [];
    if (!route || route.files.length + styles.length === 0) return template;
    // The style sheets' links are the ones Vite's loader would add (no crossorigin), so it
    // finds them by href and does not add its own.
    const links = [
      ...styles.map((sheet) => `<link rel="stylesheet" href="${sheet}">`),
      ...route.files.map((file) => `<link rel="modulepreload" crossorigin href="${file}">`),
    ].join('\n    ');
    return template.replace('</head>', `  ${links}\n  </head>`);
  };

  return {
    body(pathname, encoding) {
      const route = routes.find(({ matcher }) => matcher.test(pathname));
      const key = `${route?.pattern ?? ''}\n${encoding?.encoding ?? ''}`;
      let body = variants.get(key);
      if (!body) {
        body = compress(htmlFor(route), encoding);
        variants.set(key, body);
      }
      return body;
    },
  };
}

/**
 * The Content-Security-Policy sources (`'sha256-…'`) of the scripts written inline in the web
 * app's index.html: the page's first calls (apps/web/src/boot/first-calls.ts), which must run
 * before any file arrives. The policy allows scripts from the site and these exact texts,
 * nothing else inline. None when the app is not built.
 */
export function inlineScriptSources(webDistDir: string | undefined): string[] {
  const indexFile = webDistDir ? path.join(webDistDir, 'index.html') : undefined;
  if (!indexFile || !existsSync(indexFile)) return [];
  return inlineScriptHashes(readFileSync(indexFile, 'utf8'));
}

export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    ([, text]) =>
      `'sha256-${createHash('sha256')
        .update(text ?? '')
        .digest('base64')}'`,
  );
}
