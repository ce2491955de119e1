import { readdirSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stylesFor } from './mantine-styles';

// The package's exports hide package.json; its styles.css sits at the package root.
const mantineRoot = path.dirname(createRequire(import.meta.url).resolve('@mantine/core/styles.css'));

function classNameModules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return classNameModules(full);
    return entry.name.endsWith('.module.mjs') ? [full] : [];
  });
}

describe('Mantine styles per component', () => {
  it('finds a style sheet for every class-names module Mantine ships, and each exists', () => {
    const modules = classNameModules(path.join(mantineRoot, 'esm'));
    expect(modules.length).toBeGreaterThan(100);
    const missing = modules.filter((file) => {
      const sheet = stylesFor(file);
      return !sheet || !existsSync(path.join(mantineRoot, sheet.replace('@mantine/core/', '')));
    });
    expect(missing).toEqual([]);
  });

  it('leaves every other module alone', () => {
    expect(stylesFor(path.join(mantineRoot, 'esm/components/Button/Button.mjs'))).toBeNull();
    expect(stylesFor('/src/features/cases/cases-page.module.mjs')).toBeNull();
  });
});
