// The API's layers, lowest first (docs/ARCHITECTURE.md, "Layers"). A file imports files of its
// own layer or of a lower one, never of a higher one. One table for the lint rule
// (tools/eslint/boundaries.js, `boundaries/api-layers`) and the measuring tool
// (tools/layers/measure-layers.ts).
//
//  - db: the client, the schema and the domain SQL; it knows only the database.
//  - lib: what every feature uses (errors, access control, the route binding, drawing, …).
//  - config: the environment turned into a typed config (`config*.ts` beside app.ts); it may
//    use a lib helper (a time zone's check), and the modules read its types.
//  - modules: the features (`modules/<feature>/`) and `ops/` (backups).
//  - app: what composes the rest, imported by nothing below it: `app*.ts`, `main.ts`, the
//    command-line entries (`*-cli.ts`), the drawing process's entry and first start
//    (`bootstrap/`).

export const LAYERS = ['db', 'lib', 'config', 'modules', 'app'];

/**
 * Imports allowed back up a layer, each until it no longer runs: none since the unit of work
 * moved into `db/` and the routes declare what the trail records of them (issue #49). An entry
 * that no import needs fails tools/layers/layers.test.ts.
 * @type {Array<{ from: string, to: string[] }>}
 */
export const ALLOWED_UPWARD = [];

/**
 * The layer of a file, from its path relative to apps/api/src (forward slashes); null for a
 * file outside the API's source.
 * @param {string} relative
 * @returns {string | null}
 */
export function layerOf(relative) {
  if (relative.startsWith('..') || relative.startsWith('/')) return null;
  const [top] = relative.split('/');
  if (top === 'db') return 'db';
  if (top === 'lib') return 'lib';
  if (top === 'modules' || top === 'ops') return 'modules';
  if (/^config(-[a-z0-9-]+)?\.ts$/.test(relative)) return 'config';
  return 'app';
}

/**
 * Whether an import from one file of apps/api/src to another runs back up, into a higher layer
 * (paths relative to apps/api/src, forward slashes).
 * @param {string} from
 * @param {string} to
 * @returns {boolean}
 */
export function runsUp(from, to) {
  const low = layerOf(from);
  const high = layerOf(to);
  return Boolean(low && high && LAYERS.indexOf(high) > LAYERS.indexOf(low));
}

/**
 * Whether an import that runs back up is the allowed one.
 * @param {string} from
 * @param {string} to
 * @returns {boolean}
 */
export function allowedUp(from, to) {
  return ALLOWED_UPWARD.some((allowed) => from === allowed.from && allowed.to.some((folder) => to.startsWith(folder)));
}
