// `npm test` runs the API tests named in apps/api/test/engine-sensitive.ts on both engines and
// the rest on PostgreSQL alone (scripts/test-all.mjs). A renamed or moved test would silently
// drop off the list, and so off the embedded engine: every line must still name a test file.
import { globSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { engineSensitiveTests } from '../../apps/api/test/engine-sensitive.js';

const api = path.resolve(import.meta.dirname, '../../apps/api');

describe('the engine-sensitive API tests', () => {
  it.each(engineSensitiveTests)('%s names at least one test file', (pattern) => {
    expect(globSync(pattern, { cwd: api }).filter((file) => file.endsWith('.test.ts'))).not.toEqual([]);
  });

  it('names no timed test, which runs in a step of its own', () => {
    const files = engineSensitiveTests.flatMap((pattern) => globSync(pattern, { cwd: api }));
    expect(files.filter((file) => file.endsWith('.alone.test.ts'))).toEqual([]);
  });
});
