// One area, one name: a web feature (apps/web/src/features/<area>) and the API module it calls
// (apps/api/src/modules/<area>) carry the same folder name, so a newcomer who finds one finds
// the other (docs/ARCHITECTURE.md, "Layout"). Issue #49 found three pairs that did not match
// (`clinician` over `attempts`, `progress` over `statistics` and `reports`, `survey-templates`
// over `surveys`). An area that lives on one side only is listed below, with why; the list is
// checked too, so an entry that stops being true (the area got its other half, or is gone)
// fails until it is taken off. Run it with `npx vitest run --project tools tools/names`.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** Areas with an API module and no screens of their own, and why. */
const API_ONLY: Record<string, string> = {
  'call-limits': 'the limits on anonymous calls (sign-in, links, unsubscribing): rows, no screen',
  health: "the operators' probes (live, ready), read by a load balancer",
  imports:
    'the worker that runs CSV uploads; each upload is offered by the screen of its area (participants, elements)',
  settings: 'the public settings the web app reads as it starts (apps/web/src/lib/session)',
};

/** Areas with screens and no API module of their own, and why. */
const WEB_ONLY: Record<string, string> = {};

function folders(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/**
 * What breaks the rule: a folder on one side with no folder of its name on the other that is
 * not listed, and a listed area that is on both sides or on neither.
 */
export function areaNameProblems(
  sides: { web: string[]; api: string[] },
  oneSided: { web: Record<string, string>; api: Record<string, string> },
): string[] {
  const web = new Set(sides.web);
  const api = new Set(sides.api);
  const problems: string[] = [];
  for (const area of web) {
    if (!api.has(area) && !(area in oneSided.web)) {
      problems.push(`web feature "${area}" has no API module of that name`);
    }
  }
  for (const area of api) {
    if (!web.has(area) && !(area in oneSided.api)) {
      problems.push(`API module "${area}" has no web feature of that name`);
    }
  }
  for (const [side, listed, here, there] of [
    ['web', oneSided.web, web, api],
    ['API', oneSided.api, api, web],
  ] as const) {
    for (const area of Object.keys(listed)) {
      if (!here.has(area)) problems.push(`"${area}" is listed as ${side}-only but has no ${side} folder`);
      else if (there.has(area)) problems.push(`"${area}" is listed as ${side}-only but is on both sides`);
    }
  }
  return problems;
}

describe('area names', () => {
  it('give each web feature the API module of its name, and each API module its web feature', () => {
    const sides = { web: folders('apps/web/src/features'), api: folders('apps/api/src/modules') };
    expect(sides.web.length).toBeGreaterThan(10);
    expect(sides.api.length).toBeGreaterThan(10);
    expect(areaNameProblems(sides, { web: WEB_ONLY, api: API_ONLY })).toEqual([]);
  });

  it('bites: a planted pair of different names, and stale entries of the one-sided list', () => {
    const planted = areaNameProblems(
      { web: ['clients', 'progress', 'site-pages'], api: ['clients', 'statistics', 'health'] },
      { web: { 'site-pages': 'planted', gone: 'planted' }, api: { clients: 'planted' } },
    );
    // site-pages is listed as web-only here, so it alone passes.
    expect(planted).toEqual([
      'web feature "progress" has no API module of that name',
      'API module "statistics" has no web feature of that name',
      'API module "health" has no web feature of that name',
      '"gone" is listed as web-only but has no web folder',
      '"clients" is listed as API-only but is on both sides',
    ]);
  });
});
