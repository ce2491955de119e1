// The house rules live in eslint.config.js; this checks that they bite. Each case writes a
// file into a probe folder inside a real source tree, so the config that applies there (and
// the TypeScript project that types it) is the one a real file would get, lints it and
// removes it.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const probe = `lint-probe-${process.pid}`;
const eslint = new ESLint({ cwd: root });
const written = new Set<string>();

afterAll(() => {
  for (const folder of written) rmSync(folder, { recursive: true, force: true });
});

/**
 * Lints `text` as the file `<tree>/<probe folder>/<name>`, with `siblings` (name → text) written
 * beside it for it to import; the rules it breaks.
 */
async function rulesBroken(
  tree: string,
  name: string,
  text: string,
  siblings: Record<string, string> = {},
): Promise<string[]> {
  const folder = path.join(root, tree, probe);
  mkdirSync(folder, { recursive: true });
  written.add(folder);
  const files = [name, ...Object.keys(siblings)].map((file) => path.join(folder, file));
  writeFileSync(files[0]!, text);
  for (const [sibling, siblingText] of Object.entries(siblings)) writeFileSync(path.join(folder, sibling), siblingText);
  try {
    const [result] = await eslint.lintFiles([files[0]!]);
    return result!.messages.map((m) => m.ruleId ?? `parse: ${m.message}`);
  } finally {
    for (const file of files) rmSync(file);
  }
}

function lines(count: number): string {
  return Array.from({ length: count }, (_, i) => `export const line${i} = ${i};`).join('\n') + '\n';
}

describe('the lint configuration', () => {
  it('refuses an API source file of 351 lines and takes one of 350', async () => {
    expect(await rulesBroken('apps/api/src', 'long-module.ts', lines(351))).toEqual(['max-lines']);
    expect(await rulesBroken('apps/api/src', 'long-module.ts', lines(350))).toEqual([]);
  });

  it('refuses a web source file of 351 lines, and lets a test run to 600', async () => {
    expect(await rulesBroken('apps/web/src', 'long-page.tsx', lines(351))).toEqual(['max-lines']);
    expect(await rulesBroken('apps/api/src', 'long-module.test.ts', lines(600))).toEqual([]);
    expect(await rulesBroken('apps/api/src', 'long-module.test.ts', lines(601))).toEqual(['max-lines']);
  });

  it('refuses a floating promise', async () => {
    const text = 'async function save(): Promise<void> {}\nexport function onClick(): void {\n  save();\n}\n';
    expect(await rulesBroken('apps/api/src', 'floating.ts', text)).toEqual(['@typescript-eslint/no-floating-promises']);
    expect(await rulesBroken('apps/api/src', 'floating.ts', text.replace('  save()', '  void save()'))).toEqual([]);
  });

  it('refuses an async function where a callback returns nothing', async () => {
    const text =
      'export function wire(target: EventTarget): void {\n  target.addEventListener("x", async () => {});\n}\n';
    expect(await rulesBroken('apps/web/src', 'example-wiring.ts', text)).toEqual([
      '@typescript-eslint/no-misused-promises',
    ]);
  });

  it('refuses a switch that forgets a member of a union', async () => {
    const text = [
      "export type Role = 'superadmin' | 'admin' | 'participant';",
      'export function label(role: Role): string {',
      '  switch (role) {',
      "    case 'superadmin':",
      "      return 'Provider';",
      "    case 'admin':",
      "      return 'Client';",
      '  }',
      "  return '';",
      '}',
      '',
    ].join('\n');
    expect(await rulesBroken('apps/api/src', 'roles.ts', text)).toEqual([
      '@typescript-eslint/switch-exhaustiveness-check',
    ]);
  });

  it('refuses a cast through unknown in the web app', async () => {
    const text = 'export function count(value: string): number {\n  return value as unknown as number;\n}\n';
    expect(await rulesBroken('apps/web/src', 'cast.ts', text)).toEqual(['no-restricted-syntax']);
    expect(
      await rulesBroken('apps/web/src', 'cast.ts', text.replace('value as unknown as number', 'value.length')),
    ).toEqual([]);
  });

  it('refuses orange text in the web app (it reads under 4.5:1 on white)', async () => {
    const text = 'import { Text } from \'@mantine/core\';\nexport const Note = () => <Text c="orange.9">x</Text>;\n';
    expect(await rulesBroken('apps/web/src', 'note.tsx', text)).toEqual(['no-restricted-syntax']);
    expect(await rulesBroken('apps/web/src', 'note.tsx', text.replace('orange.9', 'red.9'))).toEqual([]);
  });

  describe("the API's layers (db → lib → config → modules → app)", () => {
    const refused = ['boundaries/api-layers'];

    it('refuses lib importing a module', async () => {
      const text =
        "import type { ClientsService } from '../../modules/clients/clients.service.js';\nexport type Clients = ClientsService;\n";
      expect(await rulesBroken('apps/api/src/lib', 'upward.ts', text)).toEqual(refused);
    });

    it('refuses db importing a module', async () => {
      const text =
        "import { auditClient } from '../../modules/audit/audit-scope.service.js';\nexport const audit = auditClient;\n";
      expect(await rulesBroken('apps/api/src/db', 'upward.ts', text)).toEqual(refused);
    });

    it('refuses db importing lib', async () => {
      const text =
        "import { AppError } from '../../lib/errors.js';\nexport const failure = new AppError('NOT_FOUND');\n";
      expect(await rulesBroken('apps/api/src/db', 'upward.ts', text)).toEqual(refused);
    });

    it("refuses a module importing the app's own files, and lib a config file", async () => {
      const app = "import { buildApp } from '../../app.js';\nexport const build = buildApp;\n";
      expect(await rulesBroken('apps/api/src/modules', 'upward.ts', app)).toEqual(refused);
      const config = "import type { AuditConfig } from '../../config-audit.js';\nexport type Audit = AuditConfig;\n";
      expect(await rulesBroken('apps/api/src/lib', 'upward.ts', config)).toEqual(refused);
    });

    it('refuses an import cycle, and takes the same imports one way', async () => {
      const oneWay = { 'leaf.ts': 'export const leaf = 1;\n' };
      const importsLeaf = "import { leaf } from './leaf.js';\nexport const root = () => leaf;\n";
      expect(await rulesBroken('apps/api/src/lib', 'root.ts', importsLeaf, oneWay)).toEqual([]);
      const back = { 'second.ts': "import { first } from './first.js';\nexport const second = () => first;\n" };
      const first = "import { second } from './second.js';\nexport const first = () => second;\n";
      expect(await rulesBroken('apps/api/src/lib', 'first.ts', first, back)).toEqual(['import-x/no-cycle']);
    });

    it('takes each layer importing the ones below it', async () => {
      const lib = "import { rowsOf } from '../../db/client.js';\nexport const rows = rowsOf;\n";
      expect(await rulesBroken('apps/api/src/lib', 'downward.ts', lib)).toEqual([]);
      const module = [
        "import { visibleClientId } from '../../lib/access-control.js';",
        "import type { AuditConfig } from '../../config-audit.js';",
        "import { rowsOf } from '../../db/client.js';",
        'export const scope = visibleClientId;',
        'export const rows = rowsOf;',
        'export type Audit = AuditConfig;',
        '',
      ].join('\n');
      expect(await rulesBroken('apps/api/src/modules', 'downward.ts', module)).toEqual([]);
      const app =
        "import { createClientsService } from '../modules/clients/clients.service.js';\nexport const clients = createClientsService;\n";
      expect(await rulesBroken('apps/api/src', 'downward.ts', app)).toEqual([]);
    });
  });

  it('refuses a file name that is not kebab-case', async () => {
    expect(await rulesBroken('apps/web/src', 'CaseEditor.ts', 'export const a = 1;\n')).toEqual([
      'unicorn/filename-case',
    ]);
  });
});
