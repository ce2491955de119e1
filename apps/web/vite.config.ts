import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { browserContract } from './build/browser-contract';
import { precompress } from './build/precompress';

export default defineConfig({
  plugins: [react(), browserContract(), precompress()],
  server: {
    port: 5173,
    // In development the API runs beside Vite; in production one process serves both.
    proxy: { '/api': 'http://localhost:3000' },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    // dist/.vite/manifest.json: which chunks each screen loads, read by the bundle budget.
    manifest: true,
  },
});
