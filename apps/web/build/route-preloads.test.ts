import { describe, expect, it } from 'vitest';
import type { Manifest } from './bundle-budget';
import { routePreloadsOf } from './route-preloads';

const manifest: Manifest = {
  'index.html': { file: 'assets/index.js', isEntry: true, imports: ['_vendor.js'], css: ['assets/index.css'] },
  '_vendor.js': { file: 'assets/vendor.js', css: ['assets/vendor.css'] },
  '_form.js': { file: 'assets/form.js', imports: ['_vendor.js'], css: ['assets/form.css', 'assets/index.css'] },
  'src/sign-in.tsx': { file: 'assets/sign-in.js', imports: ['_form.js'] },
  'src/layout.tsx': { file: 'assets/layout.js', imports: ['_vendor.js'] },
};

describe('route preloads', () => {
  it("names each screen's own chunks and their static imports, and their style sheets, not what the entry already loads", () => {
    expect(
      routePreloadsOf(manifest, [
        { url: '/sign-in', tier: 'signIn', modules: ['src/sign-in.tsx'] },
        { url: '/things/:id', tier: 'admin', modules: ['src/layout.tsx', 'src/sign-in.tsx'] },
      ]),
    ).toEqual([
      { pattern: '/sign-in', files: ['/assets/sign-in.js', '/assets/form.js'], styles: ['/assets/form.css'] },
      {
        pattern: '/things/:id',
        files: ['/assets/layout.js', '/assets/sign-in.js', '/assets/form.js'],
        styles: ['/assets/form.css'],
      },
    ]);
  });
});
