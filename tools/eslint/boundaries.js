// Keeps the layout of docs/ARCHITECTURE.md true:
//  - web: a feature (src/features/<x>) never imports another feature or the app layer;
//  - api: a module (src/modules/<x>) reaches another module only through its service or
//    its exported mappers, never its repository or routes;
//  - api: a file never imports a higher layer (db → lib → config → modules → app, named in
//    tools/layers/api-layers.js): `lib/` and `db/` never import a module, `db/` never imports
//    `lib/`, and nothing below the app's own files imports them.
import path from 'node:path';
import { LAYERS, allowedUp, layerOf, runsUp } from '../layers/api-layers.js';

function resolveImport(fromFile, source) {
  if (!source.startsWith('.')) return null;
  return path.resolve(path.dirname(fromFile), source);
}

function segmentAfter(file, marker) {
  const parts = file.split(path.sep);
  const index = parts.lastIndexOf(marker);
  return index >= 0 && index + 1 < parts.length ? parts[index + 1] : null;
}

const noCrossFeature = {
  meta: {
    type: 'problem',
    docs: { description: 'Features and modules import each other only through allowed doors.' },
    messages: {
      webFeature: 'Feature "{{from}}" may not import feature "{{to}}": move shared code to src/lib or src/components.',
      webApp: 'Feature "{{from}}" may not import the app layer (src/app).',
      apiModule:
        'Module "{{from}}" may not import "{{file}}" of module "{{to}}": call its service (*.service.ts) instead.',
    },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const inWeb = file.includes(`${path.sep}apps${path.sep}web${path.sep}src${path.sep}`);
    const inApi = file.includes(`${path.sep}apps${path.sep}api${path.sep}src${path.sep}`);
    const fromFeature = inWeb ? segmentAfter(file, 'features') : null;
    const fromModule = inApi ? segmentAfter(file, 'modules') : null;
    if (!fromFeature && !fromModule) return {};
    return {
      ImportDeclaration(node) {
        const target = resolveImport(file, node.source.value);
        if (!target) return;
        if (fromFeature) {
          const toFeature = segmentAfter(target, 'features');
          if (toFeature && toFeature !== fromFeature) {
            context.report({ node, messageId: 'webFeature', data: { from: fromFeature, to: toFeature } });
          }
          if (target.includes(`${path.sep}src${path.sep}app${path.sep}`)) {
            context.report({ node, messageId: 'webApp', data: { from: fromFeature } });
          }
        }
        if (fromModule) {
          const toModule = segmentAfter(target, 'modules');
          const base = path.basename(target);
          if (toModule && toModule !== fromModule && !/\.service(\.js)?$/.test(base)) {
            context.report({ node, messageId: 'apiModule', data: { from: fromModule, to: toModule, file: base } });
          }
        }
      },
    };
  },
};

const apiSource = `${path.sep}apps${path.sep}api${path.sep}src${path.sep}`;

/** A path inside apps/api/src as the layer table reads it (`lib/clock.ts`), or null. */
function inApiSource(file) {
  const at = file.lastIndexOf(apiSource);
  if (at < 0) return null;
  return file
    .slice(at + apiSource.length)
    .split(path.sep)
    .join('/')
    .replace(/\.js$/, '.ts');
}

const apiLayers = {
  meta: {
    type: 'problem',
    docs: { description: 'An API file imports its own layer or a lower one (db, lib, config, modules, app).' },
    messages: {
      upward:
        '"{{from}}" ({{fromLayer}}) may not import "{{to}}" ({{toLayer}}): the API\'s layers run ' +
        `${LAYERS.join(' → ')}, each importing only those before it. Move what both need down, or ` +
        'have the higher layer hand it in.',
    },
    schema: [],
  },
  create(context) {
    const from = inApiSource(context.filename);
    if (!from || /\.test\.tsx?$/.test(from)) return {};
    function check(node) {
      const source = node.source;
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const target = resolveImport(context.filename, source.value);
      const to = target && inApiSource(target);
      if (!to || !runsUp(from, to) || allowedUp(from, to)) return;
      context.report({
        node,
        messageId: 'upward',
        data: { from, fromLayer: layerOf(from), to, toLayer: layerOf(to) },
      });
    }
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export default { rules: { 'no-cross-feature': noCrossFeature, 'api-layers': apiLayers } };
