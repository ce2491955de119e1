import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Esbuild from 'esbuild';

/**
 * The drawing process's script, whose entry is the app's `drawing-process.ts` (beside `main.ts`:
 * it names each module's drawer, which `lib/` may not import). Built, it is
 * `dist/drawing-process.js` beside the API's bundle. Run from source (tests, `npm run dev`), it
 * is bundled here once per process with esbuild (a development dependency) rather than loaded
 * through tsx: tsx compiles what the process imports inside that process, pdf.js included, and
 * that alone passed a heap limit that the built script meets with room to spare, so every
 * drawing ended "out of memory". Every pool of this process (thumbnails, certificates) starts
 * the same script.
 */
let fromSource: string | null = null;

export function drawingProcessScript(): string {
  const built = fileURLToPath(new URL('./drawing-process.js', import.meta.url));
  if (existsSync(built)) return built;
  fromSource ??= bundleFromSource();
  return fromSource;
}

function bundleFromSource(): string {
  const esbuild = createRequire(import.meta.url)('esbuild') as typeof Esbuild;
  // Inside the API's folder, so the packages left out of the bundle resolve from node_modules.
  const folder = fileURLToPath(new URL('../../../node_modules/.cache/pss', import.meta.url));
  mkdirSync(folder, { recursive: true });
  const outfile = path.join(folder, `drawing-process-${process.pid}.mjs`);
  esbuild.buildSync({
    entryPoints: [fileURLToPath(new URL('../../drawing-process.ts', import.meta.url))],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'warning',
  });
  process.once('exit', () => rmSync(outfile, { force: true }));
  return outfile;
}
