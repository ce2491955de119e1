// The bundle budget: how much JavaScript (gzipped, as the server sends it) each screen needs
// before its first paint, read from the production build's manifest, against a ceiling per
// kind of screen (docs/benchmarks.md, "Web delivery").
//
// "Before first paint" is what the browser must have before React renders the screen: the
// entry chunk and every chunk it imports statically, plus, for each route the URL matches
// (React Router loads every matched route's `lazy` at once, before rendering), that route's
// chunk and its static imports. Dynamic imports inside a screen (the PDF viewer, the rich text
// editor and the charts behind placeholders, the toasts) come after the first paint.
// Read from the manifest rather than from a browser's network log: the same build always
// gives the same figure, with no server, session, cache or timing in the way.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export const KB = 1000;

export type Tier = 'signIn' | 'participant' | 'admin';

/** The ceilings, gzipped. */
export const BUDGETS: Record<Tier, number> = { signIn: 120 * KB, participant: 150 * KB, admin: 250 * KB };

export interface Screen {
  url: string;
  tier: Tier;
  /** The source modules of the lazy routes the URL matches, outermost first (apps/web/src/app/router.tsx). */
  modules: string[];
  /**
   * A screen still over its tier's ceiling has a ceiling of its own, just above what it weighs
   * today: it may not grow while the work to bring it under the ceiling goes on
   * (docs/benchmarks.md, "Web delivery"). Lower it whenever the screen gets lighter.
   */
  interim?: number;
}

const project = '/project-management/clients/:clientId/projects/:projectId';

export const SCREENS: Screen[] = [
  { url: '/login-landing', tier: 'signIn', modules: ['src/features/auth/login-landing-page.tsx'] },
  {
    url: '/participant/sign-in',
    tier: 'signIn',
    modules: ['src/features/clinician/participant-root.tsx', 'src/features/clinician/participant-sign-in-page.tsx'],
  },
  {
    url: '/participant',
    tier: 'participant',
    modules: [
      'src/features/clinician/participant-root.tsx',
      'src/features/clinician/participant-layout.tsx',
      'src/features/clinician/dashboard-page.tsx',
    ],
  },
  {
    url: '/participant/cases/:attemptId',
    tier: 'participant',
    modules: [
      'src/features/clinician/participant-root.tsx',
      'src/features/clinician/participant-layout.tsx',
      'src/features/clinician/case-page.tsx',
    ],
  },
  ...(
    [
      ['/project-management', 'src/features/clients/clients-list-page.tsx', null],
      ['/user-management', 'src/features/users/users-list-page.tsx', null],
      ['/audit-log', 'src/features/audit/audit-log-page.tsx', null],
      ['/account/security', 'src/features/auth/second-factor/security-page.tsx', null],
      ['/survey-templates/:id', 'src/features/surveys/survey-template-editor-page.tsx', null],
      ['/resource-library/:id', 'src/features/resources/resource-details-page.tsx', null],
    ] as const
  ).map(([url, module, interim]) => ({
    url,
    tier: 'admin' as const,
    ...(interim === null ? {} : { interim: interim * KB }),
    modules: ['src/app/route-gates.tsx', 'src/app/staff-screens.ts', module],
  })),
  {
    url: '/module-library/:id/cases',
    tier: 'admin',
    modules: [
      'src/app/route-gates.tsx',
      'src/app/staff-screens.ts',
      'src/features/module-library/module-layout.tsx',
      'src/features/cases/cases-page.tsx',
    ],
  },
  ...(
    [
      ['', 'src/features/projects/project-overview.tsx', null],
      ['/participants', 'src/features/participants/participants-page.tsx', null],
      ['/cases/case-details/:caseId', 'src/features/cases/case-editor-page.tsx', null],
      ['/emails/edit/:emailId', 'src/features/emails/email-editor-page.tsx', null],
      ['/progress', 'src/app/progress-screen.tsx', null],
      ['/history', 'src/features/projects/project-history-page.tsx', null],
      ['/progress/edit/:id', 'src/features/season-summaries/season-summary-page.tsx', null],
    ] as const
  ).map(([tail, module, interim]) => ({
    url: `${project}${tail}`,
    tier: 'admin' as const,
    ...(interim === null ? {} : { interim: interim * KB }),
    modules: [
      'src/app/route-gates.tsx',
      'src/app/staff-screens.ts',
      'src/features/projects/project-layout.tsx',
      module,
    ],
  })),
];

export interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  /** The style sheets the chunk needs, loaded with it. */
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

/** The files a set of manifest keys loads: the keys' own and their static imports, transitively. */
export function staticClosure(manifest: Manifest, keys: string[]): string[] {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    // A renamed or removed screen must not drop out of the budget unnoticed.
    if (!chunk) throw new Error(`${key} is not in the build manifest`);
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return [...files];
}

export interface ScreenResult {
  url: string;
  tier: Tier;
  files: string[];
  bytes: number;
  /** The tier's ceiling. */
  budget: number;
  /** The ceiling that applies: the screen's interim one when it has one, else the tier's. */
  ceiling: number;
  ok: boolean;
}

/** Every screen's JavaScript before first paint; `sizeOf(file)` is a built file's gzipped size. */
export function measureScreens(
  manifest: Manifest,
  sizeOf: (file: string) => number,
  screens: Screen[] = SCREENS,
): ScreenResult[] {
  const entries = Object.keys(manifest).filter((key) => manifest[key]?.isEntry);
  if (entries.length !== 1) throw new Error(`expected one entry in the build manifest, found ${entries.length}`);
  return screens.map((screen) => {
    const files = staticClosure(manifest, [...entries, ...screen.modules]).filter((file) => file.endsWith('.js'));
    const bytes = files.reduce((sum, file) => sum + sizeOf(file), 0);
    const budget = BUDGETS[screen.tier];
    const ceiling = Math.max(budget, screen.interim ?? 0);
    return { url: screen.url, tier: screen.tier, files, bytes, budget, ceiling, ok: bytes <= ceiling };
  });
}

/** Reads the web build in `distDir` (its manifest and chunks) and measures every screen. */
export function checkBuild(distDir: string): ScreenResult[] {
  const manifest = JSON.parse(readFileSync(path.join(distDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const sizes = new Map<string, number>();
  const sizeOf = (file: string) => {
    let size = sizes.get(file);
    if (size === undefined) {
      // Level 9, as the build's precompression writes the .gz the server sends.
      size = gzipSync(readFileSync(path.join(distDir, file)), { level: 9 }).length;
      sizes.set(file, size);
    }
    return size;
  };
  return measureScreens(manifest, sizeOf);
}

export function formatResult(result: ScreenResult): string {
  const kb = (n: number) => `${(n / KB).toFixed(1)} kB`;
  const verdict = result.ok ? 'ok  ' : 'OVER';
  const limit =
    result.ceiling > result.budget
      ? `interim ceiling ${kb(result.ceiling)}; target ${kb(result.budget)}`
      : `budget ${kb(result.budget)}`;
  return `${verdict} ${result.url}: ${kb(result.bytes)} of JavaScript before first paint (${limit}, ${result.files.length} chunks)`;
}
