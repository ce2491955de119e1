import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { SCREENS, staticClosure, type Manifest, type Screen } from './bundle-budget';

/**
 * The chunks each first screen needs beyond the entry's, for the server to name in that
 * screen's index.html as `<link rel="modulepreload">` (apps/api/src/lib/index-html.ts).
 *
 * Without them a first visit is a waterfall: the browser fetches and runs the entry (React,
 * the router) before the router asks for the screen's own chunks, one more round trip on a
 * phone's network (issue #19). Named in the page, they download while the entry does.
 * The screens are the bundle budget's (./bundle-budget.ts): the ones a first visit lands on.
 */
export interface RoutePreload {
  /** A route pattern: `/participant/cases/:attemptId`. */
  pattern: string;
  /** Built files, from the site's root: `/assets/case-page-x.js`. */
  files: string[];
}

export const ROUTE_PRELOADS_FILE = 'route-preloads.json';

export function routePreloadsOf(manifest: Manifest, screens: Screen[] = SCREENS): RoutePreload[] {
  const entries = Object.keys(manifest).filter((key) => manifest[key]?.isEntry);
  const loadedByEntry = new Set(staticClosure(manifest, entries));
  return screens.map((screen) => ({
    pattern: screen.url,
    files: staticClosure(manifest, screen.modules)
      .filter((file) => file.endsWith('.js') && !loadedByEntry.has(file))
      .map((file) => `/${file}`),
  }));
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
