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

/** Lints `text` as the file `<tree>/<probe folder>/<name>`; the rules it breaks. */
async function rulesBroken(tree: string, name: string, text: string): Promise<string[]> {
  const folder = path.join(root, tree, probe);
  mkdirSync(folder, { recursive: true });
  written.add(folder);
  const file = path.join(folder, name);
  writeFileSync(file, text);
  try {
    const [result] = await eslint.lintFiles([file]);
    return result!.messages.map((m) => m.ruleId ?? `parse: ${m.message}`);
  } finally {
    rmSync(file);
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

  it('refuses a file name that is not kebab-case', async () => {
    expect(await rulesBroken('apps/web/src', 'CaseEditor.ts', 'export const a = 1;\n')).toEqual([
      'unicorn/filename-case',
    ]);
  });
});
