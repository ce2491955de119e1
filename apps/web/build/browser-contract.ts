import MagicString from 'magic-string';
import type { Plugin } from 'vite';

/** What the web app reads of a route declaration at run time (apps/web/src/lib/api-client.ts). */
const BROWSER_FIELDS = new Set(['method', 'path', 'upload']);

interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';
}

/** The `{ … }` argument of every `route({ … })` call in a module's syntax tree. */
function routeDeclarations(node: Node, found: Node[] = []): Node[] {
  if (node.type === 'CallExpression') {
    const callee = node.callee as Node;
    const [argument] = node.arguments as Node[];
    if (callee.type === 'Identifier' && callee.name === 'route' && argument?.type === 'ObjectExpression') {
      found.push(argument);
    }
  }
  for (const value of Object.values(node)) {
    for (const child of Array.isArray(value) ? value : [value]) if (isNode(child)) routeDeclarations(child, found);
  }
  return found;
}

/** The initial values of a module's top-level `const`s that are computed by a call (`z.object(…)`, `….extend(…)`). */
function computedConstants(program: Node): Node[] {
  return (program.body as Node[])
    .map((statement) => (statement.type === 'ExportNamedDeclaration' ? (statement.declaration as Node) : statement))
    .filter((statement) => statement?.type === 'VariableDeclaration' && statement.kind === 'const')
    .flatMap((statement) => (statement.declarations as Node[]).map((declarator) => declarator.init as Node | null))
    .filter((init): init is Node => init?.type === 'CallExpression' || init?.type === 'NewExpression');
}

/**
 * The contract as the browser needs it. The browser calls the API through the contract's
 * route table, but reads only a route's method, path and upload flag; its zod schemas are
 * the server's (which validates requests and answers with them) and the type checker's
 * (which reads the untouched source). Left in, they pull zod and every schema into the
 * first screen, because the session and sign-in calls import the route table. So, in the
 * web build only:
 *   - each `route({ … })` keeps its method, path and upload flag;
 *   - each top-level `const` computed by a call (a schema: `z.enum(…)`, `a.extend(…)`) is
 *     marked pure, so the bundler drops the ones no screen reads (defining a schema does
 *     nothing beyond making the value);
 *   - the contract's modules are free of side effects, so a module no screen reads is left out.
 * A screen that validates a form with a contract schema still imports it, and zod, itself.
 */
export function browserContract(): Plugin {
  return {
    name: 'pss-browser-contract',
    apply: 'build',
    // After TypeScript has become JavaScript, so the module parses as such.
    enforce: 'post',
    transform(code, id) {
      if (!/\/packages\/contract\/src\//.test(id)) return null;
      const program = this.parse(code) as unknown as Node;
      const out = new MagicString(code);
      for (const declaration of routeDeclarations(program)) {
        const kept = (declaration.properties as Node[]).filter((property) => {
          const key = property.key as Node | undefined;
          return property.type === 'Property' && key?.type === 'Identifier' && BROWSER_FIELDS.has(key.name as string);
        });
        const literal = `{ ${kept.map((property) => code.slice(property.start, property.end)).join(', ')} }`;
        out.overwrite(declaration.start, declaration.end, literal);
      }
      // A pure-annotated arrow call: unambiguous however long the chain of calls inside is.
      for (const init of computedConstants(program)) {
        out.appendLeft(init.start, '/* @__PURE__ */ (() => ');
        out.prependRight(init.end, ')()');
      }
      return { code: out.toString(), map: out.generateMap({ hires: true, source: id }), moduleSideEffects: false };
    },
  };
}
