// The API's import graph: every relative import between the non-test files of apps/api/src
// (type-only imports, re-exports and dynamic imports too: each ties one file to another), and
// what is measured on it — its cycles, its floors and the imports that run back up a layer.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { allowedUp, layerOf, runsUp } from './api-layers.js';

export const apiSource = path.resolve(import.meta.dirname, '../../apps/api/src');

/** Files as paths relative to apps/api/src with forward slashes; each with the files it imports. */
export type ImportGraph = Map<string, Set<string>>;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name);
    if (statSync(full).isDirectory()) return name === 'migrations' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

function resolve(fromFile: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(fromFile), specifier).replace(/\.js$/, '');
  for (const candidate of [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // Not this one.
    }
  }
  return null;
}

const relative = (root: string, file: string) => path.relative(root, file).split(path.sep).join('/');

/**
 * The specifiers a file reaches by types alone: every import or re-export of it is
 * `import type` / `export type`, or it is a module the file augments (`declare module`). Such
 * an import is gone from the JavaScript that runs.
 */
function typeOnlySpecifiers(file: string, text: string): Set<string> {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const typeOnly = new Set<string>();
  const value = new Set<string>();
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      (statement.importClause?.isTypeOnly ? typeOnly : value).add(statement.moduleSpecifier.text);
    } else if (
      ts.isExportDeclaration(statement) &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier)
    ) {
      (statement.isTypeOnly ? typeOnly : value).add(statement.moduleSpecifier.text);
    } else if (ts.isModuleDeclaration(statement) && ts.isStringLiteral(statement.name)) {
      typeOnly.add(statement.name.text);
    }
  }
  // A dynamic import() is found by preProcessFile only, and is a value import.
  const dynamic = ts
    .preProcessFile(text, true, true)
    .importedFiles.filter(({ fileName }) => !typeOnly.has(fileName) && !value.has(fileName));
  for (const { fileName } of dynamic) value.add(fileName);
  return new Set([...typeOnly].filter((specifier) => !value.has(specifier)));
}

/**
 * The import graph of a source tree (apps/api/src unless told); with `types: false`, only the
 * imports that load a file when the code runs (see `typeOnlySpecifiers`).
 */
export function readImportGraph(root = apiSource, { types = true }: { types?: boolean } = {}): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of sourceFiles(root)) {
    const text = readFileSync(file, 'utf8');
    const skipped = types ? new Set<string>() : typeOnlySpecifiers(file, text);
    const targets = new Set<string>();
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      const target = skipped.has(fileName) ? null : resolve(file, fileName);
      if (target && target.startsWith(root + path.sep) && !/\.test\.tsx?$/.test(target)) {
        targets.add(relative(root, target));
      }
    }
    graph.set(relative(root, file), targets);
  }
  return graph;
}

/** The strongly connected groups of a graph (Tarjan), each a cycle when it holds two files or more. */
export function stronglyConnected(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let next = 0;
  // Iterative, so that a deep chain of imports cannot overflow the call stack.
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; edges: string[]; at: number }[] = [];
    const enter = (node: string) => {
      index.set(node, next);
      low.set(node, next++);
      stack.push(node);
      onStack.add(node);
      work.push({ node, edges: [...(graph.get(node) ?? [])], at: 0 });
    };
    enter(start);
    while (work.length) {
      const frame = work.at(-1)!;
      if (frame.at < frame.edges.length) {
        const target = frame.edges[frame.at++]!;
        if (!index.has(target)) enter(target);
        else if (onStack.has(target)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        continue;
      }
      work.pop();
      const parent = work.at(-1);
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const group: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          group.push(member);
        } while (member !== frame.node);
        groups.push(group);
      }
    }
  }
  return groups;
}

/** The cycles: groups of files that import each other, round and round (a file importing itself too). */
export function cycles(graph: ImportGraph): string[][] {
  return stronglyConnected(graph)
    .filter((group) => group.length > 1 || graph.get(group[0]!)?.has(group[0]!))
    .map((group) => group.sort());
}

/**
 * Each file's floor: a file that imports nothing of the tree is on floor 1, any other one floor
 * above the highest file it imports. The files of a cycle count as one, on one floor.
 */
export function floors(graph: ImportGraph): Map<string, number> {
  const groups = stronglyConnected(graph); // Tarjan finds a group after every group it reaches.
  const groupOf = new Map<string, number>();
  groups.forEach((group, i) => group.forEach((file) => groupOf.set(file, i)));
  const floorOf: number[] = [];
  groups.forEach((group, i) => {
    let floor = 1;
    for (const file of group) {
      for (const target of graph.get(file) ?? []) {
        const j = groupOf.get(target)!;
        if (j !== i) floor = Math.max(floor, floorOf[j]! + 1);
      }
    }
    floorOf[i] = floor;
  });
  return new Map([...groupOf].map(([file, i]) => [file, floorOf[i]!]));
}

/** The graph of the tree's parts: `db`, `lib`, `config`, `ops`, each `modules/<feature>` and the app's files. */
export function partsGraph(graph: ImportGraph): ImportGraph {
  const partOf = (file: string) => {
    const [top, second] = file.split('/');
    if (top === 'modules') return `modules/${second}`;
    return layerOf(file) === 'app' && !file.includes('/') ? 'app' : layerOf(file) === 'config' ? 'config' : top!;
  };
  const parts: ImportGraph = new Map();
  for (const [file, targets] of graph) {
    const from = partOf(file);
    const edges = parts.get(from) ?? new Set<string>();
    for (const target of targets) if (partOf(target) !== from) edges.add(partOf(target));
    parts.set(from, edges);
  }
  return parts;
}

export interface UpwardImport {
  from: string;
  to: string;
  /** The one kept on purpose until its work lands (tools/layers/api-layers.js). */
  allowed: boolean;
}

/** Every import that runs from a lower layer into a higher one. */
export function upwardImports(graph: ImportGraph): UpwardImport[] {
  return [...graph].flatMap(([from, targets]) =>
    [...targets].filter((to) => runsUp(from, to)).map((to) => ({ from, to, allowed: allowedUp(from, to) })),
  );
}
