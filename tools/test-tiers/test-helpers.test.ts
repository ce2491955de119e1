// The API tests share their imported modules within a worker (`isolate: false` in
// apps/api/vitest.config.ts): a shared test helper that built a context when imported would
// hand the first test file's app and database, closed when that file ends, to every later
// file. A test file calls the setup itself (`const { ctx, call } = casesSetup();`); this
// refuses a helper that makes one at its top level.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const testFolder = path.resolve(import.meta.dirname, '../../apps/api/test');

/** A top-level statement that builds a context or registers hooks: `const x = casesSetup();`. */
const madeAtImport =
  /^(?:export\s+)?(?:const|let)\s+[^=]+=\s*(?:\w+Setup|testContext|twoClientsContext|madeBefore)\(|^(?:beforeAll|afterAll|beforeEach|afterEach)\(/m;

export function helpersMakingAtImport(files: Array<{ name: string; text: string }>): string[] {
  return files.filter((file) => madeAtImport.test(file.text)).map((file) => file.name);
}

describe('the shared API test helpers', () => {
  it('build no context when imported', () => {
    const helpers = readdirSync(testFolder, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
      .map((name) => ({ name, text: readFileSync(path.join(testFolder, name), 'utf8') }));
    expect(helpers.length).toBeGreaterThan(10);
    expect(helpersMakingAtImport(helpers)).toEqual([]);
  });

  it('refuse a planted helper that does', () => {
    const planted = [
      {
        name: 'planted-calls.ts',
        text: "import { casesSetup } from './case-calls.js';\nconst setup = casesSetup();\n",
      },
      { name: 'planted-hooks.ts', text: 'beforeAll(async () => {});\n' },
      {
        name: 'fine-calls.ts',
        text: 'export function plantedSetup() {\n  const ctx = testContext();\n  return { ctx };\n}\n',
      },
    ];
    expect(helpersMakingAtImport(planted)).toEqual(['planted-calls.ts', 'planted-hooks.ts']);
  });
});
