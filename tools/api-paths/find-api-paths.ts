// Finds API paths written in source code outside the contract's route table
// (packages/contract/src/routes): string and template literals that name a call of the API.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** A path literal found where none should be. */
export interface FoundPath {
  /** Relative to the repository's root, with forward slashes. */
  file: string;
  line: number;
  /** The literal's text, each `${…}` of a template written as `:`. */
  text: string;
  why: string;
}

/** What counts as an API path in a source tree. */
export interface ScanRules {
  /**
   * A literal with the shape of a route-table path (`'/clients'`, `` `/clients/${id}` ``).
   * Not in the web app: some of its screens have the URLs of the API calls they show
   * (`/survey-templates/:id` is a screen and a call), so there only `/api/…` and a route
   * written out as an object count.
   */
  routeShapes: boolean;
  /** A Fastify registration with a path of its own (`app.get('/x', …)`): the API's sources. */
  registrations: boolean;
}

interface RouteLike {
  method: string;
  path: string;
}

function isRoute(value: unknown): value is RouteLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    'method' in value &&
    'path' in value &&
    typeof value.method === 'string' &&
    typeof value.path === 'string'
  );
}

/** A path's parameters as one mark: `/clients/:id`, `/clients/${id}` and `/clients/:clientId/` are all `/clients/:`. */
export function pathShape(text: string): string {
  const shape = text.split(/[?#]/)[0]!.replace(/:[A-Za-z_]\w*/g, ':');
  return shape.length > 1 ? shape.replace(/\/$/, '') : shape;
}

/** The shapes of every route a module exports, alone or in a table (`clientRoutes.list`). */
export function routeShapes(contract: Record<string, unknown>): Set<string> {
  const shapes = new Set<string>();
  for (const value of Object.values(contract)) {
    const routes = isRoute(value) ? [value] : typeof value === 'object' && value ? Object.values(value) : [];
    for (const route of routes) if (isRoute(route)) shapes.add(pathShape(route.path));
  }
  return shapes;
}

/** `/api/…`, alone, after a `${…}`, or after an origin: a call under the API's prefix. */
const UNDER_API_PREFIX = /^(?:[a-z][a-z+.-]*:\/\/[^/]+|:)?\/api\/[^/?#]/i;
const REGISTRATIONS = new Set(['get', 'post', 'put', 'delete', 'patch', 'head', 'options', 'all']);

function literalText(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node))
    return node.head.text + node.templateSpans.map((s) => `:${s.literal.text}`).join('');
  return undefined;
}

function propertyNamed(object: ts.ObjectLiteralExpression, name: string): ts.PropertyAssignment | undefined {
  return object.properties.find(
    (p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === name,
  );
}

/** Why the literal `node` is an API path, or undefined when it is not one. */
function whyApiPath(node: ts.Node, text: string, shapes: Set<string>, rules: ScanRules): string | undefined {
  if (UNDER_API_PREFIX.test(text)) return 'a path under /api';
  const parent = node.parent;
  if (text.startsWith('/') && ts.isPropertyAssignment(parent) && parent.initializer === node) {
    const object = parent.parent;
    const name = ts.isIdentifier(parent.name) ? parent.name.text : '';
    if (
      ts.isObjectLiteralExpression(object) &&
      (name === 'path' || name === 'url') &&
      propertyNamed(object, 'method')
    ) {
      return 'a route declared outside the route table';
    }
  }
  if (
    rules.registrations &&
    text.startsWith('/') &&
    ts.isCallExpression(parent) &&
    parent.arguments[0] === node &&
    ts.isPropertyAccessExpression(parent.expression) &&
    REGISTRATIONS.has(parent.expression.name.text)
  ) {
    return 'a route registered outside the route table';
  }
  if (rules.routeShapes && text.startsWith('/') && shapes.has(pathShape(text))) return "a route table's path";
  return undefined;
}

/** The API paths written in one source file's text. */
export function findApiPaths(file: string, source: string, shapes: Set<string>, rules: ScanRules): FoundPath[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, kind);
  const found: FoundPath[] = [];
  const visit = (node: ts.Node): void => {
    const text = literalText(node);
    const why = text === undefined ? undefined : whyApiPath(node, text, shapes, rules);
    if (text !== undefined && why) {
      const line = tree.getLineAndCharacterOfPosition(node.getStart(tree)).line + 1;
      found.push({ file, line, text, why });
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}

/** The source files under `dir` (relative to `root`), tests and folders in `skip` left out. */
export function sourceFiles(root: string, dir: string, skip: readonly string[] = []): string[] {
  const files: string[] = [];
  const walk = (relative: string): void => {
    if (skip.some((s) => `${relative}/`.startsWith(s))) return;
    for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(child);
      } else if (/\.(ts|tsx|js|mjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !skip.includes(child)) {
        files.push(child);
      }
    }
  };
  walk(dir);
  return files.sort();
}

/** Every API path written in the files, read from `root`. */
export function scanFiles(root: string, files: string[], shapes: Set<string>, rules: ScanRules): FoundPath[] {
  return files.flatMap((file) => findApiPaths(file, readFileSync(path.join(root, file), 'utf8'), shapes, rules));
}
