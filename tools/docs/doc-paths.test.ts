// The architecture map (docs/ARCHITECTURE.md) and the design docs (docs/design/*.md) name
// files and folders all the time; a file split or renamed leaves them pointing at nothing.
// This reads every path they name and fails, listing them, on those that do not exist; it
// also holds the map to the length a newcomer reads in twenty minutes (3,000 words, counted
// as `wc -w` counts) and to linking every design doc. Run it with
// `npx --no vitest run --project tools tools/docs`.
//
// What counts as a named path:
//  - an inline code span (`…`) holding one path-like word: a name with a slash whose first
//    folder is a folder of this repository (`apps/api/src/app.ts`, `lib/clock.ts`,
//    `modules/imports`), or a name ending in a source or document extension
//    (`case-transfers.service.ts`, `vite.config.ts`);
//  - a markdown link's target that is not a web address (`[emails](design/emails.md)`),
//    resolved from the doc's folder, with its `#anchor` checked against the target's headings.
// A path named in backticks exists when it does from the repository root, or when it is the
// tail of a file or folder that does: the docs name files inside an app's source by their
// path there (`lib/clock.ts` is apps/api/src/lib/clock.ts), and a bare file name means the
// file of that name. Skipped on purpose, since they name no one file:
//  - globs and placeholders: anything holding `*`, `<…>`, `{…}`, `[…]` or `…` / `...`
//    (`*.test.ts`, `modules/<feature>/`, `DATA_DIR/pages/{name}.html`);
//  - web and API addresses (`/api/openapi.json`, `https://…`), which start with `/` or a scheme;
//  - build output under a `dist/` folder, which a fresh checkout does not have;
//  - extensions and dot-names on their own (`.br`, `.layer.css`);
//  - fenced code blocks (commands and sketches, not references).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const MAX_MAP_WORDS = 3000;

/** Folders never walked: installed packages, build output, local data and reports. */
const NOT_WALKED = new Set([
  '.git',
  'node_modules',
  'dist',
  'data',
  'coverage',
  'test-results',
  'playwright-report',
  '.test-reports',
]);

/** Extensions that make a slash-less word a file name (and a slashed one a path). */
const FILE_EXTENSION = /\.(ts|tsx|mts|cts|js|mjs|cjs|json|md|css|sql|yaml|yml|html|svg|sh)$/;

/** Names written in backticks that look like paths but name something outside the repository. */
const NOT_REPOSITORY_PATHS = new Set<string>([]);

interface Tree {
  /** Every file and folder, as a path from the root with `/` separators. */
  paths: Set<string>;
  /** Every folder's own name (`lib`, `modules`, `e2e`). */
  folderNames: Set<string>;
}

function walk(): Tree {
  const paths = new Set<string>();
  const folderNames = new Set<string>();
  const visit = (relative: string): void => {
    for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (NOT_WALKED.has(entry.name)) continue;
        paths.add(child);
        folderNames.add(entry.name);
        visit(child);
      } else {
        paths.add(child);
      }
    }
  };
  visit('');
  return { paths, folderNames };
}

interface Named {
  doc: string;
  line: number;
  text: string;
  kind: 'code' | 'link';
}

/** Markdown without its fenced blocks, line numbers kept (their lines left empty). */
function withoutFences(markdown: string): string {
  let inFence = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        inFence = !inFence;
        return '';
      }
      return inFence ? '' : line;
    })
    .join('\n');
}

function lineAt(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

/** The code spans and link targets of a markdown file. */
function namedIn(doc: string, markdown: string): Named[] {
  const text = withoutFences(markdown);
  const named: Named[] = [];
  for (const match of text.matchAll(/(`+)([^`]+?)\1(?!`)/g)) {
    named.push({ doc, line: lineAt(text, match.index), text: match[2]!.trim(), kind: 'code' });
  }
  const outsideCode = text.replace(/(`+)[^`]+?\1(?!`)/g, (span) => span.replace(/[^\n]/g, ' '));
  for (const match of outsideCode.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    named.push({ doc, line: lineAt(outsideCode, match.index), text: match[1]!, kind: 'link' });
  }
  return named;
}

function isPlaceholder(word: string): boolean {
  return /[*<>{}[\]…]|\.\.\.(?!\/)/.test(word);
}

/** Whether a code span names a repository path (see the rules at the top). */
function looksLikePath(word: string, tree: Tree): boolean {
  if (/\s/.test(word) || isPlaceholder(word)) return false;
  if (NOT_REPOSITORY_PATHS.has(word)) return false;
  if (!/^[\w.@-]+(\/[\w.@-]+)*\/?$/.test(word)) return false;
  if (word.startsWith('.') && !word.startsWith('./') && !word.startsWith('../')) return false;
  if (word.split('/').includes('dist')) return false;
  if (!word.includes('/')) return FILE_EXTENSION.test(word);
  const first = word.split('/')[0]!;
  return tree.folderNames.has(first) || tree.paths.has(first) || FILE_EXTENSION.test(word.replace(/\/$/, ''));
}

/** A path from the root, or the tail of one (`lib/clock.ts`, `scoring.ts`). */
function existsInTree(word: string, tree: Tree): boolean {
  const wanted = path.posix.normalize(word.replace(/\/$/, '')).replace(/^(\.\/)+/, '');
  if (tree.paths.has(wanted)) return true;
  for (const candidate of tree.paths) {
    if (candidate.endsWith(`/${wanted}`)) return true;
  }
  return false;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function slugOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutFences(readFileSync(file, 'utf8')).split('\n')) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = slugOf(heading[1]!);
    const times = seen.get(slug) ?? 0;
    seen.set(slug, times + 1);
    anchors.add(times === 0 ? slug : `${slug}-${times}`);
  }
  return anchors;
}

/** Why a named path fails, or null when it holds (or is not a repository path at all). */
function problemOf(named: Named, tree: Tree): string | null {
  if (named.kind === 'code') {
    if (!looksLikePath(named.text, tree)) return null;
    return existsInTree(named.text, tree) ? null : 'no such file or folder';
  }
  const target = named.text;
  if (/^[a-z][a-z\d+.-]*:/i.test(target) || target.startsWith('//')) return null;
  if (isPlaceholder(target)) return null;
  const [file, anchor] = target.split('#') as [string, string | undefined];
  const docFile = path.join(root, named.doc);
  const resolved = file ? path.resolve(path.dirname(docFile), decodeURIComponent(file)) : docFile;
  const inside = path.relative(root, resolved);
  if (inside.startsWith('..')) return 'points outside the repository';
  let isFile: boolean;
  try {
    isFile = statSync(resolved).isFile();
  } catch {
    return 'no such file or folder';
  }
  if (anchor && isFile && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) {
    return `no heading #${anchor} in ${inside}`;
  }
  return null;
}

/** The paths a markdown text names that do not exist, one line each: `doc:line  path  (why)`. */
function missingIn(doc: string, markdown: string, tree: Tree): string[] {
  const missing: string[] = [];
  for (const named of namedIn(doc, markdown)) {
    const problem = problemOf(named, tree);
    if (problem) missing.push(`${named.doc}:${named.line}  ${named.text}  (${problem})`);
  }
  return missing;
}

function missingPaths(docs: string[], tree: Tree): string[] {
  return docs.flatMap((doc) => missingIn(doc, readFileSync(path.join(root, doc), 'utf8'), tree));
}

function docsChecked(): string[] {
  const design = readdirSync(path.join(root, 'docs/design'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/design/${name}`);
  return ['docs/ARCHITECTURE.md', ...design];
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

describe('the architecture docs', () => {
  const tree = walk();

  it('name only paths that exist', () => {
    expect(missingPaths(docsChecked(), tree)).toEqual([]);
  });

  it(`keep the map to ${MAX_MAP_WORDS} words (as wc -w counts them)`, () => {
    const words = wordCount(readFileSync(path.join(root, 'docs/ARCHITECTURE.md'), 'utf8'));
    expect(words).toBeLessThanOrEqual(MAX_MAP_WORDS);
  });

  it('give no heading twice in one document (README and CONTRIBUTING too)', () => {
    const repeated = ['README.md', 'CONTRIBUTING.md', 'docs/benchmarks.md', ...docsChecked()].flatMap((doc) => {
      const headings = withoutFences(readFileSync(path.join(root, doc), 'utf8'))
        .split('\n')
        .filter((line) => /^#{1,6} /.test(line))
        .map((line) => line.replace(/^#+ /, '').trim().toLowerCase());
      return headings.filter((h, i) => headings.indexOf(h) !== i).map((h) => `${doc}: ${h}`);
    });
    expect(repeated).toEqual([]);
  });

  it('link the map to every design doc', () => {
    const map = readFileSync(path.join(root, 'docs/ARCHITECTURE.md'), 'utf8');
    const linked = new Set(
      namedIn('docs/ARCHITECTURE.md', map)
        .filter((named) => named.kind === 'link')
        .map((named) => named.text.split('#')[0]),
    );
    const unlinked = docsChecked()
      .slice(1)
      .map((doc) => doc.replace(/^docs\//, ''))
      .filter((doc) => !linked.has(doc));
    expect(unlinked).toEqual([]);
  });
});

describe('the path check', () => {
  const tree = walk();
  const check = (markdown: string): string[] => missingIn('docs/design/probe.md', markdown, tree);

  it('reports a planted path, a planted file name and a link to nothing', () => {
    const planted = [
      'The worker is `apps/api/src/modules/imports/no-such-worker.ts`, beside `lib/no-such-lib.ts`',
      'and `no-such-file.service.ts`; see [emails](emails-gone.md) and [the map](../ARCHITECTURE.md#no-such-heading).',
    ].join('\n');
    expect(check(planted)).toEqual([
      'docs/design/probe.md:1  apps/api/src/modules/imports/no-such-worker.ts  (no such file or folder)',
      'docs/design/probe.md:1  lib/no-such-lib.ts  (no such file or folder)',
      'docs/design/probe.md:2  no-such-file.service.ts  (no such file or folder)',
      'docs/design/probe.md:2  emails-gone.md  (no such file or folder)',
      'docs/design/probe.md:2  ../ARCHITECTURE.md#no-such-heading  (no heading #no-such-heading in docs/ARCHITECTURE.md)',
    ]);
  });

  it('takes real paths, short paths, folders and anchors', () => {
    const real = [
      '`apps/api/src/app.ts`, `lib/clock.ts`, `modules/imports`, `packages/contract/src/`,',
      '`vite.config.ts`, [the map](../ARCHITECTURE.md#what-runs), [README](../../README.md).',
    ].join('\n');
    expect(check(real)).toEqual([]);
  });

  it('skips globs, placeholders, addresses, build output and what is not a path', () => {
    const skipped = [
      '`*.test.ts`, `modules/<feature>/`, `DATA_DIR/pages/{name}.html`, `[Content_Types].xml`,',
      '`GET /api/clients/{id}`, `/api/openapi.json`, `dist/thumbnail-worker.js`, `.layer.css`,',
      '`multipart/form-data`, `body.email`, [a site](https://example.org/x.ts), and',
      '```sh',
      'node apps/api/no-such-script.mjs',
      '```',
    ].join('\n');
    expect(check(skipped)).toEqual([]);
  });
});
