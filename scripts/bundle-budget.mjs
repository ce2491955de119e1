#!/usr/bin/env node
// The bundle budget: how much JavaScript (gzipped, as the server sends it) each screen needs
// before its first paint, read from the production build's manifest, against a ceiling per
// kind of screen. Run after `npm run build`:
//   node scripts/bundle-budget.mjs            (exit 1 when a screen is over its budget)
//
// "Before first paint" is what the browser must have before React renders the screen: the
// entry chunk and every chunk it imports statically, plus, for each route the URL matches
// (React Router loads every matched route's `lazy` at once, before rendering), that route's
// chunk and its static imports. Dynamic imports inside a screen (a PDF viewer, the rich text
// editor behind a placeholder) come after the first paint and are not counted.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const KB = 1000;

/** Ceilings in bytes, gzipped (issue #19, "Fast everywhere"). */
export const BUDGETS = { signIn: 120 * KB, participant: 150 * KB, admin: 250 * KB };

/**
 * The screens that are budgeted: each with the source modules of the lazy routes its URL
 * matches, outermost first (as in apps/web/src/app/router.tsx). A module that is not in the
 * manifest fails the check, so a renamed screen cannot drop out of the budget unnoticed.
 */
export const SCREENS = [
  { url: '/login-landing', tier: 'signIn', modules: ['src/features/auth/login-landing-page.tsx'] },
  {
    url: '/participant/sign-in',
    tier: 'signIn',
    modules: ['src/features/clinician/participant-layout.tsx', 'src/features/clinician/participant-sign-in-page.tsx'],
  },
  {
    url: '/participant',
    tier: 'participant',
    modules: ['src/features/clinician/participant-layout.tsx', 'src/features/clinician/dashboard-page.tsx'],
  },
  {
    url: '/participant/cases/:attemptId',
    tier: 'participant',
    modules: ['src/features/clinician/participant-layout.tsx', 'src/features/clinician/case-page.tsx'],
  },
  { url: '/project-management', tier: 'admin', modules: ['src/features/clients/clients-list-page.tsx'] },
  { url: '/user-management', tier: 'admin', modules: ['src/features/users/users-list-page.tsx'] },
  {
    url: '/survey-templates/:id',
    tier: 'admin',
    modules: ['src/features/survey-templates/survey-template-editor-page.tsx'],
  },
  { url: '/resource-library/:id', tier: 'admin', modules: ['src/features/resources/resource-details-page.tsx'] },
  {
    url: '/module-library/:id/cases',
    tier: 'admin',
    modules: ['src/features/module-library/module-layout.tsx', 'src/features/cases/cases-page.tsx'],
  },
  ...[
    ['', 'src/features/projects/project-overview.tsx'],
    ['/participants', 'src/features/participants/participants-page.tsx'],
    ['/cases/case-details/:caseId', 'src/features/cases/case-editor-page.tsx'],
    ['/emails/edit/:emailId', 'src/features/emails/email-editor-page.tsx'],
    ['/progress', 'src/features/progress/progress-page.tsx'],
    ['/progress/edit/:id', 'src/features/season-summaries/season-summary-page.tsx'],
  ].map(([tail, module]) => ({
    url: `/project-management/clients/:clientId/projects/:projectId${tail}`,
    tier: 'admin',
    modules: ['src/features/projects/project-layout.tsx', module],
  })),
];

/** The chunk files a set of manifest keys loads: the keys' own and their static imports, transitively. */
export function staticClosure(manifest, keys) {
  const files = new Set();
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build manifest`);
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return [...files];
}

/**
 * Every budgeted screen's JavaScript before first paint, gzipped.
 * `sizeOf(file)` gives a built file's gzipped size (injected so the logic can be tested without a build).
 */
export function measureScreens(manifest, sizeOf, screens = SCREENS, budgets = BUDGETS) {
  const entries = Object.keys(manifest).filter((key) => manifest[key].isEntry);
  if (entries.length !== 1) throw new Error(`expected one entry in the build manifest, found ${entries.length}`);
  return screens.map((screen) => {
    const files = staticClosure(manifest, [...entries, ...screen.modules]).filter((file) => file.endsWith('.js'));
    const bytes = files.reduce((sum, file) => sum + sizeOf(file), 0);
    const budget = budgets[screen.tier];
    return { url: screen.url, tier: screen.tier, files, bytes, budget, ok: bytes <= budget };
  });
}

/** Reads the web build in `distDir` and measures every screen. */
export function checkBuild(distDir) {
  const manifest = JSON.parse(readFileSync(path.join(distDir, '.vite', 'manifest.json'), 'utf8'));
  const sizes = new Map();
  const sizeOf = (file) => {
    if (!sizes.has(file)) sizes.set(file, gzipSync(readFileSync(path.join(distDir, file)), { level: 9 }).length);
    return sizes.get(file);
  };
  return measureScreens(manifest, sizeOf);
}

export function formatResult(result) {
  const kb = (n) => `${(n / KB).toFixed(1)} kB`;
  const verdict = result.ok ? 'ok  ' : 'OVER';
  return `${verdict} ${result.url}: ${kb(result.bytes)} of JavaScript before first paint (budget ${kb(result.budget)}, ${result.files.length} chunks)`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const distDir = path.resolve(import.meta.dirname, '..', 'apps', 'web', 'dist');
  const results = checkBuild(distDir);
  for (const result of results) console.log(formatResult(result));
  const over = results.filter((r) => !r.ok);
  if (over.length) {
    console.error(`\nBundle budget: ${over.length} screen(s) over budget: ${over.map((r) => r.url).join(', ')}`);
    process.exit(1);
  }
  console.log(`\nBundle budget: all ${results.length} screens within budget`);
}
