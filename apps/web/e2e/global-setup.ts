import { existsSync } from 'node:fs';
import path from 'node:path';

export default function globalSetup(): void {
  const built = path.resolve(import.meta.dirname, '../dist/index.html');
  if (!existsSync(built)) throw new Error('The web app is not built: run `npm run build` first.');
}
