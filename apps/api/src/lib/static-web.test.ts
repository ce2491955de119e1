import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { testContext } from '../../test/kit.js';
import { testConfig } from '../../test/test-app.js';

const ctx = testContext();

/** A built web app with a script, its source map (and compressed copies of both, as a careless build might leave). */
function distWithSourceMaps(): string {
  const dist = mkdtempSync(path.join(os.tmpdir(), 'pss-web-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Patient Simulation Platform</title>');
  const script = 'console.log("the app");'.repeat(100);
  const map = JSON.stringify({ version: 3, sources: ['../src/secret.ts'], sourcesContent: ['// the source'] });
  writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), script);
  for (const name of ['index-abc123.js.map', 'index-abc123.css.map']) {
    writeFileSync(path.join(dist, 'assets', name), map);
    writeFileSync(path.join(dist, 'assets', `${name}.br`), brotliCompressSync(map));
    writeFileSync(path.join(dist, 'assets', `${name}.gz`), gzipSync(map));
  }
  return dist;
}

describe('source maps of the built web app', () => {
  it('are never served: a 404 in every spelling and encoding, while the script itself is', async () => {
    const app = await buildApp({
      config: testConfig({ WEB_DIST_DIR: distWithSourceMaps(), NODE_ENV: 'production', PUBLIC_URL: 'https://x.test' }),
      database: ctx.database,
      logger: false,
    });
    try {
      expect((await app.inject({ url: '/assets/index-abc123.js' })).statusCode).toBe(200);
      for (const url of [
        '/assets/index-abc123.js.map',
        '/assets/index-abc123.css.map',
        '/assets/index-abc123.JS.MAP',
        '/assets/index-abc123.js.map?v=1',
        '/assets/%69ndex-abc123.js.map',
      ]) {
        for (const encoding of [undefined, 'br', 'gzip']) {
          const answer = await app.inject({ url, headers: encoding ? { 'accept-encoding': encoding } : {} });
          expect({ url, encoding, status: answer.statusCode }).toEqual({ url, encoding, status: 404 });
          expect(answer.json<{ errorCode: string }>().errorCode).toBe('NOT_FOUND');
        }
      }
    } finally {
      await app.close();
    }
  });

  it('are not named in the bundles the build writes', () => {
    // `true` would end every bundle with a sourceMappingURL comment pointing at its map.
    const viteConfig = readFileSync(path.resolve(import.meta.dirname, '../../../web/vite.config.ts'), 'utf8');
    expect(viteConfig).toMatch(/\bsourcemap: 'hidden'/);
  });
});
