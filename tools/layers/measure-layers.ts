// Measures the API's layers from its imports and prints the figures docs/ARCHITECTURE.md
// ("Layers") quotes: `npx tsx tools/layers/measure-layers.ts [source folder]` (apps/api/src
// unless told: another checkout's, to measure it as it was).
//  - the layers, lowest first, with how many files each holds;
//  - floors: the longest chain of imports, counted in files (a file importing nothing of
//    apps/api/src is on floor 1; the files of a cycle count as one), for the files and for the
//    parts (db, lib, config, ops, each module, the app's files);
//  - the cycles, between files and between parts (and between parts again, leaving out
//    `import type`: a service typed by another's interface loads none of its code);
//  - every import that runs back up a layer, the one allowed for now marked as such.
import path from 'node:path';
import { LAYERS, layerOf } from './api-layers.js';
import {
  apiSource,
  cycles,
  floors,
  partsGraph,
  readImportGraph,
  upwardImports,
  type ImportGraph,
} from './import-graph.js';

function highest(graph: ImportGraph): { floors: number; chain: string[] } {
  const floorOf = floors(graph);
  const top = Math.max(...floorOf.values());
  // One chain down from a file on the top floor, each step to a file one floor lower.
  const chain: string[] = [];
  let at = [...floorOf].find(([, floor]) => floor === top)?.[0];
  while (at) {
    chain.push(at);
    const below = floorOf.get(at)! - 1;
    at = [...(graph.get(at) ?? [])].find((target) => floorOf.get(target) === below);
  }
  return { floors: top, chain };
}

const root = process.argv[2] ? path.resolve(process.argv[2]) : apiSource;
const graph = readImportGraph(root);
const parts = partsGraph(graph);
const print = (line = '') => process.stdout.write(`${line}\n`);

print('Layers, lowest first (a file imports its own layer or a lower one):');
for (const layer of LAYERS) {
  const count = [...graph.keys()].filter((file) => layerOf(file) === layer).length;
  print(`  ${layer}: ${count} files`);
}
const imports = [...graph.values()].reduce((sum, targets) => sum + targets.size, 0);
print(`${graph.size} files, ${imports} imports`);
print();

const files = highest(graph);
print(`Floors (files): ${files.floors}`);
print(`  e.g. ${files.chain.join(' -> ')}`);
const partFloors = highest(parts);
print(`Floors (parts): ${partFloors.floors}`);
print(`  e.g. ${partFloors.chain.join(' -> ')}`);
print();

const fileCycles = cycles(graph);
print(`Cycles between files: ${fileCycles.length}`);
for (const cycle of fileCycles) print(`  ${cycle.join(', ')}`);
const partCycles = cycles(parts);
print(`Cycles between parts: ${partCycles.length}`);
for (const cycle of partCycles) print(`  ${cycle.join(', ')}`);
const valueCycles = cycles(partsGraph(readImportGraph(root, { types: false })));
print(`Cycles between parts, by the imports that load code (not \`import type\`): ${valueCycles.length}`);
for (const cycle of valueCycles) print(`  ${cycle.join(', ')}`);
print();

const upward = upwardImports(graph);
print(`Imports running back up: ${upward.length} (${upward.filter((u) => !u.allowed).length} not allowed)`);
for (const { from, to, allowed } of upward) {
  print(`  ${from} (${layerOf(from)}) -> ${to} (${layerOf(to)})${allowed ? '  [allowed until #49 uow]' : ''}`);
}
