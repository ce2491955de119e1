import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Vitest's own order runs the longest files first only when its results cache has their
 * times, and a fresh clone (every CI run) has none: it ran files by size, project by project,
 * so a 40-second file could start last and run alone while the other core sat idle
 * (docs/testing.md). This order reads the times measured in an earlier run, kept in
 * `file-seconds.json` (refresh it with `npx tsx tools/test-tiers/record-file-seconds.ts` after
 * `npm test`), and starts the longest files first, whatever their project. A file it has no
 * time for keeps Vitest's order, after the measured ones.
 */
const measured: Record<string, number> = JSON.parse(
  readFileSync(path.join(import.meta.dirname, 'file-seconds.json'), 'utf8'),
).seconds;

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const secondsOf = (file: TestSpecification) => measured[path.relative(root, file.moduleId)] ?? 0;
    const byVitest = await super.sort(files);
    // Array.prototype.sort is stable: files of equal (or no) measured time keep Vitest's order.
    return byVitest.sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder || secondsOf(b) - secondsOf(a),
    );
  }
}
