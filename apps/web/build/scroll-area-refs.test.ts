import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { scrollAreaImport } from './scroll-area-refs';

// The package's exports hide package.json; its styles.css sits at the package root.
const mantineRoot = path.dirname(createRequire(import.meta.url).resolve('@mantine/core/styles.css'));
const scrollArea = path.join(mantineRoot, 'esm/components/ScrollArea/ScrollArea.mjs');

describe("Mantine's ScrollArea without Floating UI", () => {
  it('sends its import of @floating-ui/react to the app’s own useMergeRefs', () => {
    const target = scrollAreaImport('@floating-ui/react', scrollArea);
    expect(target).toMatch(/src[\\/]lib[\\/]vendor[\\/]merge-refs\.ts$/);
    expect(existsSync(target!)).toBe(true);
  });

  it('leaves every other import, and Floating UI for every other importer, alone', () => {
    expect(scrollAreaImport('react', scrollArea)).toBeNull();
    const popover = scrollArea.replace('ScrollArea/ScrollArea.mjs', 'Popover/use-popover.mjs');
    expect(scrollAreaImport('@floating-ui/react', popover)).toBeNull();
    expect(scrollAreaImport('@floating-ui/react', undefined)).toBeNull();
  });

  it('is needed for useMergeRefs alone: the installed ScrollArea takes nothing else from Floating UI', () => {
    const imports = [
      ...readFileSync(scrollArea, 'utf8').matchAll(/import\s*\{([^}]*)\}\s*from\s*"@floating-ui\/react"/g),
    ];
    expect(imports.map((m) => m[1]!.trim())).toEqual(['useMergeRefs']);
  });
});
