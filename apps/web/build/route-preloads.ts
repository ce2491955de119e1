import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { SCREENS, staticClosure, type Manifest, type Screen } from './bundle-budget';

/**
 * The chunks each first screen needs beyond the entry's, for the server to name in that
 * screen's index.html as `<link rel="modulepreload">` (apps/api/src/lib/index-html.ts), and
 * the style sheets those chunks bring, named there as `<link rel="stylesheet">`.
 *
 * Without them a first visit is a waterfall: the browser fetches and runs the entry (React,
 * the router) before the router asks for the screen's own chunks, one more round trip on a
 * phone's network. Named in the page, they download while the entry does. The
 * style sheets are a second such wait: the router's loader fetches a chunk's CSS only once
 * the chunk is asked for, and renders the screen only once it has arrived; named in the page,
 * they arrive with the entry, and the loader finds them there and does not fetch them again.
 * The screens are the bundle budget's (./bundle-budget.ts): the ones a first visit lands on.
 */
export interface RoutePreload {
  /** A route pattern: `/participant/cases/:attemptId`. */
  pattern: string;
  /** Built files, from the site's root: `/assets/case-page-x.js`. */
  files: string[];
  /** The style sheets those files bring, from the site's root: `/assets/Table-x.css`. */
  styles: string[];
}

export const ROUTE_PRELOADS_FILE = 'route-preloads.json';

export function routePreloadsOf(manifest: Manifest, screens: Screen[] = SCREENS): RoutePreload[] {
  const entries = Object.keys(manifest).filter((key) => manifest[key]?.isEntry);
  const loadedByEntry = new Set(staticClosure(manifest, entries));
  const cssOf = new Map(Object.values(manifest).map((chunk) => [chunk.file, chunk.css ?? []]));
  const entryStyles = new Set([...loadedByEntry].flatMap((file) => cssOf.get(file) ?? []));
  return screens.map((screen) => {
    const files = staticClosure(manifest, screen.modules).filter(
      (file) => file.endsWith('.js') && !loadedByEntry.has(file),
    );
    const styles = [...new Set(files.flatMap((file) => cssOf.get(file) ?? []))].filter(
      (sheet) => !entryStyles.has(sheet),
    );
    return { pattern: screen.url, files: files.map((file) => `/${file}`), styles: styles.map((sheet) => `/${sheet}`) };
  });
}

/** Writes `route-preloads.json` into the build's `.vite` folder, beside the manifest it reads. */
export function routePreloads(): Plugin {
  let outDir = 'dist';
  return {
    name: 'pss-route-preloads',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const manifest = JSON.parse(readFileSync(path.join(outDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
      writeFileSync(
        path.join(outDir, '.vite', ROUTE_PRELOADS_FILE),
        JSON.stringify(routePreloadsOf(manifest), null, 1),
      );
    },
  };
}
