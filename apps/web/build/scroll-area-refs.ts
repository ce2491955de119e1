import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * Mantine's ScrollArea imports one hook, `useMergeRefs`, from `@floating-ui/react`. The
 * bundler keeps a module whole, and Floating UI's React module is the positioning engine of
 * every popover, select, menu and tooltip. The data table's scroll
 * container and the dialogs use the ScrollArea, so every administrator screen downloaded the
 * positioning engine before its first paint, most of them with nothing to position
 * (docs/benchmarks.md, "Web delivery"). For that one importer this plugin resolves the
 * import to the same hook made with Mantine's own (src/lib/vendor/merge-refs.ts); the
 * screens with a popover still load Floating UI themselves.
 *
 * Should a later Mantine take more than `useMergeRefs` from Floating UI here, the build
 * stops with the missing export named, rather than running without it.
 */
const SCROLL_AREA = /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]ScrollArea[\\/]ScrollArea\.mjs$/;
const MERGE_REFS = path.resolve(import.meta.dirname, '../src/lib/vendor/merge-refs.ts');

/** Where an import of `source` from `importer` goes instead, or null to leave it be. */
export function scrollAreaImport(source: string, importer: string | undefined): string | null {
  return source === '@floating-ui/react' && importer && SCROLL_AREA.test(importer.split('?')[0]!) ? MERGE_REFS : null;
}

export function scrollAreaWithoutFloatingUi(): Plugin {
  return {
    name: 'pss-scroll-area-refs',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      return scrollAreaImport(source, importer);
    },
  };
}
