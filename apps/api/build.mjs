// Bundles the API (with the contract package inlined) into dist/main.js, the backup
// command into dist/backup.js, the audit trail's check into dist/audit.js, and the drawing
// process's script (thumbnails, certificate PDFs) into dist/drawing-process.js
// (drawing-process-script.ts finds it beside the bundle); npm packages stay external and load
// from node_modules.
// Migrations are copied beside them.
import { build } from 'esbuild';
import { cpSync, readFileSync, rmSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((name) => name !== '@pss/contract');

rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: {
    main: 'src/main.ts',
    backup: 'src/backup-cli.ts',
    audit: 'src/audit-cli.ts',
    'storage-copy': 'src/storage-copy-cli.ts',
    'drawing-process': 'src/drawing-process.ts',
  },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'esm',
  sourcemap: true,
  external: [...external, ...external.map((name) => `${name}/*`)],
  // Lets bundled CommonJS helpers call require().
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
cpSync('src/db/migrations', 'dist/migrations', { recursive: true });
console.log('API built: apps/api/dist/main.js');
