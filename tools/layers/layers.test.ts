// The API's import graph keeps its shape (docs/ARCHITECTURE.md, "Layers"): no import cycle
// between its files, `import type` included (the linter's `import-x/no-cycle` leaves those
// out), and no import back up a layer but one ALLOWED_UPWARD names (none now), each of those
// still there (when its work lands, its allow-list entry goes too). The layers themselves are
// linted (`boundaries/api-layers`, planted cases in tools/eslint/lint-config.test.ts). Run it
// with `npx vitest run --project tools tools/layers`.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALLOWED_UPWARD } from './api-layers.js';
import { apiSource, cycles, readImportGraph, upwardImports } from './import-graph.js';

describe("the API's import graph", () => {
  it('has no import cycle between its files (an `import type` counts)', () => {
    expect(cycles(readImportGraph())).toEqual([]);
  });

  it('finds a cycle planted in a real source tree, through a type import too', () => {
    const folder = path.join(apiSource, 'lib', `cycle-probe-${process.pid}`);
    mkdirSync(folder, { recursive: true });
    try {
      writeFileSync(
        path.join(folder, 'first.ts'),
        "import { second } from './second.js';\nexport const first = second;\n",
      );
      writeFileSync(
        path.join(folder, 'second.ts'),
        "import type { first } from './first.js';\nexport const second = 2;\nexport type First = typeof first;\n",
      );
      const probe = `lib/cycle-probe-${process.pid}`;
      expect(cycles(readImportGraph())).toEqual([[`${probe}/first.ts`, `${probe}/second.ts`]]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('has no import back up a layer but an allowed one, and each allowed one is still there', () => {
    const upward = upwardImports(readImportGraph());
    expect(upward.filter((u) => !u.allowed)).toEqual([]);
    // An entry of ALLOWED_UPWARD that no import needs any more is to be deleted.
    for (const { from, to } of ALLOWED_UPWARD) {
      for (const folder of to) expect(upward.some((u) => u.from === from && u.to.startsWith(folder))).toBe(true);
    }
  });
});
