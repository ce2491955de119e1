// Starts the built app on an empty data directory (a fresh database every run).
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dataDir = process.env.DATA_DIR;
if (!dataDir || !dataDir.includes('pss-e2e')) throw new Error(`refusing to clear DATA_DIR=${dataDir}`);
rmSync(dataDir, { recursive: true, force: true });
await import(fileURLToPath(new URL('../../api/dist/main.js', import.meta.url)));
