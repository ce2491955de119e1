import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminTexts } from './admin-texts';
import { publicTexts } from './public-texts';
import { t } from './index';

/**
 * The administrators' texts come with the staff shell, not with the first screen (./index.ts).
 * A public screen (sign-in, the participants' side, the site pages) or anything it imports that
 * used one would show its key instead of its words, so every module those screens load is read
 * here for a key of an administrators' section.
 */
const src = path.resolve(import.meta.dirname, '../..');

const PUBLIC_ROOTS = [
  'main.tsx',
  'app/router.tsx',
  'app/home-page.tsx',
  'app/not-found-page.tsx',
  ...['features/auth', 'features/clinician', 'features/site-pages'].flatMap((dir) =>
    readdirSync(path.join(src, dir))
      .filter((file) => /\.tsx?$/.test(file) && !file.includes('.test.'))
      .map((file) => `${dir}/${file}`),
  ),
];

/** A module and every module it imports statically (`import … from './x'`), transitively. */
function staticClosure(roots: string[]): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(path.join(src, file), 'utf8');
    for (const match of code.matchAll(/^import\s[^;]*?from\s+'(\.[^']+)'/gms)) {
      const target = path.join(path.dirname(file), match[1]!);
      const resolved = ['.ts', '.tsx', '/index.ts', '/index.tsx', '']
        .map((ext) => target + ext)
        .find((candidate) => existsSync(path.join(src, candidate)) && /\.tsx?$/.test(candidate));
      if (resolved) visit(resolved);
    }
  };
  roots.forEach(visit);
  return [...seen];
}

describe('the texts that come with the first screen', () => {
  it('cover every key the public screens use', () => {
    const files = staticClosure(PUBLIC_ROOTS);
    // The staff shell is reached only through a lazy route; it must not be in this set.
    expect(files).not.toContain('app/route-gates.tsx');
    expect(files.length).toBeGreaterThan(20);
    const adminSections = Object.keys(adminTexts);
    const keyInText = new RegExp(`['\`](?:${adminSections.join('|')})\\.[a-zA-Z]`, 'g');
    const offenders = files.flatMap((file) =>
      [...readFileSync(path.join(src, file), 'utf8').matchAll(keyInText)].map((m) => `${file}: ${m[0]}`),
    );
    expect(offenders).toEqual([]);
  });

  it('leave the case and survey texts to the modules that show them, each of which brings them', () => {
    const files = staticClosure(PUBLIC_ROOTS);
    // The sign-in screens show no case: the texts come with the case screens (./case-texts.ts).
    expect(files).not.toContain('lib/i18n/case.ts');
    const all = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter(
      (file) => /\.tsx?$/.test(file) && !file.includes('.test.') && !file.startsWith('lib/i18n/'),
    );
    const users = all.filter((file) =>
      /['`]common\.(caseView|survey)\./.test(readFileSync(path.join(src, file), 'utf8')),
    );
    expect(users.length).toBeGreaterThan(5);
    const without = users.filter(
      (file) => !/^import '[./]+lib\/i18n\/case';$/m.test(readFileSync(path.join(src, file), 'utf8')),
    );
    expect(without).toEqual([]);
  });

  it('leave the participants’ own screens’ texts to the modules that show them, each of which brings them', () => {
    const files = staticClosure(
      PUBLIC_ROOTS.filter((file) => /sign-in|link-page|create-password|site-pages|auth\//.test(file)),
    );
    // The participant sign-in screens show no dashboard: its texts come with it (./participant-page-texts.ts).
    expect(files).not.toContain('lib/i18n/participant.ts');
    const all = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter(
      (file) => /\.tsx?$/.test(file) && !file.includes('.test.') && !file.startsWith('lib/i18n/'),
    );
    const users = all.filter((file) => /['`]participantPages\./.test(readFileSync(path.join(src, file), 'utf8')));
    expect(users.length).toBeGreaterThan(5);
    const without = users.filter(
      (file) => !/^import '[./]+lib\/i18n\/participant';$/m.test(readFileSync(path.join(src, file), 'utf8')),
    );
    expect(without).toEqual([]);
  });

  it('have no section in both parts', () => {
    const both = Object.keys(publicTexts).filter((section) => section in adminTexts);
    expect(both).toEqual([]);
  });
});

describe('t', () => {
  it('puts values into their slots and picks the plural form from count', () => {
    expect(t('app.signedInAs', { name: 'Ann Lee' })).toBe('Signed in as Ann Lee');
    expect(t('resources.attachedCount', { count: 1 })).toBe('1 case');
    expect(t('resources.attachedCount', { count: 3 })).toBe('3 cases');
    expect(t('participants.archived', { count: 2 })).toBe('2 participants archived.');
  });

  it('answers a key with no text with the key itself', () => {
    expect(t('app.nothingHere' as never)).toBe('app.nothingHere');
  });
});
