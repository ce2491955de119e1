import { describe, expect, it } from 'vitest';
import { KB, measureScreens, staticClosure, type Manifest } from './bundle-budget';

/** A build like Vite's: an entry, a shared vendor chunk, two screens, one with a dynamic-only editor. */
const manifest: Manifest = {
  'index.html': { file: 'assets/index.js', isEntry: true, imports: ['_vendor.js'] },
  '_vendor.js': { file: 'assets/vendor.js' },
  '_form.js': { file: 'assets/form.js', imports: ['_vendor.js'] },
  'src/sign-in.tsx': { file: 'assets/sign-in.js', imports: ['_form.js'] },
  'src/editor.tsx': { file: 'assets/editor.js' },
  'src/admin.tsx': { file: 'assets/admin.js', imports: ['_form.js'] },
};
const sizes: Record<string, number> = {
  'assets/index.js': 60 * KB,
  'assets/vendor.js': 40 * KB,
  'assets/form.js': 15 * KB,
  'assets/sign-in.js': 4 * KB,
  'assets/editor.js': 140 * KB,
  'assets/admin.js': 10 * KB,
};
const sizeOf = (file: string) => sizes[file]!;

describe('the bundle budget', () => {
  it('counts the entry, the matched routes and their static imports once each, not dynamic imports', () => {
    expect(staticClosure(manifest, ['index.html', 'src/sign-in.tsx']).sort()).toEqual([
      'assets/form.js',
      'assets/index.js',
      'assets/sign-in.js',
      'assets/vendor.js',
    ]);
  });

  it('passes a screen under its tier and fails one over it, naming route and size', () => {
    const [signIn, admin] = measureScreens(manifest, sizeOf, [
      { url: '/sign-in', tier: 'signIn', modules: ['src/sign-in.tsx'] },
      { url: '/admin', tier: 'signIn', modules: ['src/admin.tsx', 'src/editor.tsx'] },
    ]);
    expect(signIn).toMatchObject({ url: '/sign-in', bytes: 119 * KB, ok: true });
    expect(admin).toMatchObject({ url: '/admin', bytes: 265 * KB, budget: 120 * KB, ok: false });
  });

  it("holds a screen over the target to its interim ceiling, never below the tier's", () => {
    const screens = [
      { url: '/a', tier: 'participant' as const, interim: 270 * KB, modules: ['src/admin.tsx', 'src/editor.tsx'] },
      { url: '/b', tier: 'participant' as const, interim: 260 * KB, modules: ['src/admin.tsx', 'src/editor.tsx'] },
      { url: '/c', tier: 'admin' as const, interim: 100 * KB, modules: ['src/admin.tsx'] },
    ];
    const [a, b, c] = measureScreens(manifest, sizeOf, screens);
    expect(a).toMatchObject({ ok: true, ceiling: 270 * KB });
    expect(b).toMatchObject({ ok: false, ceiling: 260 * KB });
    expect(c).toMatchObject({ ok: true, ceiling: 250 * KB });
  });

  it('fails when a budgeted screen is missing from the build', () => {
    expect(() =>
      measureScreens(manifest, sizeOf, [{ url: '/gone', tier: 'admin', modules: ['src/renamed.tsx'] }]),
    ).toThrow('src/renamed.tsx is not in the build manifest');
  });
});
