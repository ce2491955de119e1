import { describe, expect, it } from 'vitest';
import { requiredRichText, requiredText, requiredValue } from './text-fields.js';
import { isBlankRichText, isBlankText, requiredTextProblem } from './text-rule.js';

declare global {
  interface ImportMeta {
    /** Vite's: the files matching the patterns, read as the options say. */
    glob<T>(patterns: string[], options: { query: string; import: string; eager: true }): Record<string, T>;
  }
}

const codesOf =
  (schema: { safeParse(value: unknown): { success: boolean; error?: { issues: { message: string }[] } } }) =>
  (value: unknown) => {
    const result = schema.safeParse(value);
    return result.success ? null : result.error!.issues.map((issue) => issue.message);
  };

describe('the text rule (spec §5)', () => {
  it('calls plain text blank when it holds only whitespace', () => {
    for (const blank of [null, undefined, '', ' ', ' \t\n', '\u00a0', '\u200b ']) expect(isBlankText(blank)).toBe(true);
    for (const filled of ['a', ' a ', '0', '.']) expect(isBlankText(filled)).toBe(false);
  });

  it('calls rich text blank once empty paragraphs, tags and &nbsp; are stripped', () => {
    for (const blank of [
      '',
      '<p></p>',
      '<p></p><p> </p>',
      '<p><br></p>',
      '<p><br/></p><p>&nbsp;</p>',
      '<p class="x">&#160; &#xA0;</p>',
      '<h2> </h2><ul><li><strong></strong></li></ul>',
      '<!-- nothing --><script>alert(1)</script><style>p{}</style>',
    ]) {
      expect(isBlankRichText(blank), blank).toBe(true);
    }
    for (const filled of ['<p>Hello</p>', '<p></p><p>x</p>', 'plain', '<p>&amp;</p>', '<pre>code</pre>']) {
      expect(isBlankRichText(filled), filled).toBe(false);
    }
  });

  it('names what is wrong with a required text', () => {
    expect(requiredTextProblem('')).toBe('FIELD_REQUIRED');
    expect(requiredTextProblem(null)).toBe('FIELD_REQUIRED');
    expect(requiredTextProblem('   ')).toBe('BLANK_TEXT');
    expect(requiredTextProblem('<p></p>', true)).toBe('BLANK_TEXT');
    expect(requiredTextProblem('<p></p>')).toBeNull();
    expect(requiredTextProblem('x')).toBeNull();
  });
});

describe('requiredText and requiredRichText', () => {
  it('answers FIELD_REQUIRED for nothing, BLANK_TEXT for whitespace, the field’s code when too long — one at a time', () => {
    const name = codesOf(requiredText(5, 'INVALID_NAME'));
    expect(name('')).toEqual(['FIELD_REQUIRED']);
    expect(name(undefined)).toEqual(['FIELD_REQUIRED']);
    expect(name(null)).toEqual(['FIELD_REQUIRED']);
    expect(name('   ')).toEqual(['BLANK_TEXT']);
    expect(name('abcdef')).toEqual(['INVALID_NAME']);
    expect(name(42)).toHaveLength(1);
    expect(name(' abcde ')).toBeNull();
    expect(requiredText(5).parse('  ab  ')).toBe('ab');
  });

  it('checks rich text as a reader sees it', () => {
    const body = codesOf(requiredRichText(100));
    expect(body('')).toEqual(['FIELD_REQUIRED']);
    expect(body('<p></p><p> </p>')).toEqual(['BLANK_TEXT']);
    expect(body('<p><br></p>&nbsp;')).toEqual(['BLANK_TEXT']);
    expect(body('<p>Hello</p>')).toBeNull();
  });

  it('leaves a value that is not prose to its own format', () => {
    const date = codesOf(requiredValue().regex(/^\d{4}-\d{2}-\d{2}$/, 'bad date'));
    expect(date('')).toEqual(['FIELD_REQUIRED']);
    expect(date('  ')).toEqual(['bad date']);
  });
});

/**
 * The house rule: every required text of the contract is made by text-fields.ts, so that a
 * new field cannot answer FIELD_REQUIRED for spaces (or let them through). A chain is read
 * with its lines joined, as prettier may break it.
 */
describe('the contract declares no required text by hand', () => {
  // Read through Vite (the contract has no Node types: it runs in the browser too).
  const sources = Object.entries(
    import.meta.glob<string>(['./*.ts', './routes/*.ts', '!./*.test.ts', '!./text-fields.ts', '!./text-rule.ts'], {
      query: '?raw',
      import: 'default',
      eager: true,
    }),
  );
  const byHand = [
    // A trimmed string that must not be empty: whitespace would say FIELD_REQUIRED.
    /\.trim\(\)\.min\(1\b/,
    /\.trim\(\)\.nonempty\(/,
    // A required string with the catalogue's codes: the rule's own.
    /\.(min\(1|nonempty\()\s*,?\s*\{?\s*(message:\s*)?'(FIELD_REQUIRED|BLANK_TEXT)'/,
    /\.nonempty\(\s*\{?\s*(message:\s*)?'(FIELD_REQUIRED|BLANK_TEXT)'/,
  ];

  it('finds the sources to read', () => {
    expect(sources.length).toBeGreaterThan(20);
  });

  it.each(sources)('%s', (_name, source) => {
    const joined = source.replace(/\n\s*\./g, '.');
    const found = byHand.flatMap((pattern) => joined.match(new RegExp(pattern, 'g')) ?? []);
    expect(found, 'use requiredText / requiredRichText / requiredValue from text-fields.ts').toEqual([]);
  });

  it('would catch a field declared the old way', () => {
    const old = "name: z\n    .string()\n    .trim()\n    .min(1, 'FIELD_REQUIRED')\n    .max(200),".replace(
      /\n\s*\./g,
      '.',
    );
    expect(byHand.some((pattern) => pattern.test(old))).toBe(true);
    expect(byHand.some((pattern) => pattern.test("z.string().min(1, 'FIELD_REQUIRED')"))).toBe(true);
    expect(byHand.some((pattern) => pattern.test('z.string().trim().min(1).max(120)'))).toBe(true);
  });
});
