// Keeps the layout of docs/ARCHITECTURE.md true:
//  - web: a feature (src/features/<x>) never imports another feature or the app layer;
//  - api: a module (src/modules/<x>) reaches another module only through its service or
//    its exported mappers, never its repository or routes.
import path from 'node:path';

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

export default { rules: { 'no-cross-feature': noCrossFeature } };
