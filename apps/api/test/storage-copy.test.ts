import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Resource, ResourceFileDetails, ResourcePage } from '@pss/contract';
import { seedDemoContent } from '../demo/demo-content.js';
import { openFileStorage, storageSetting } from '../src/lib/open-file-storage.js';
import { parseS3Url } from '../src/lib/s3-storage.js';
import { localFileStorage } from '../src/lib/storage.js';
import { copyFilesToBucket } from '../src/ops/storage-copy.js';
import { call } from './kit.js';
import { startS3Server, type S3TestServer } from './s3-server.js';
import { bearerFor, contextOn, createTestContext, createUser, type TestContext } from './test-app.js';

/**
 * `npm run storage:copy` (issue #50): a demo installation's files, kept in DATA_DIR/files, copied
 * into a bucket; then an app with STORAGE_URL and an empty DATA_DIR serves every one of them.
 */
let server: S3TestServer;
let ctx: TestContext;
let filesDir: string;

beforeAll(async () => {
  server = await startS3Server();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pss-copy-'));
  filesDir = path.join(dataDir, 'files');
  ctx = await createTestContext({ env: { DATA_DIR: dataDir } });
  await seedDemoContent(ctx.db, ctx.clock.now(), localFileStorage(filesDir));
  await ctx.app.resources.runPending();
}, 120_000);
afterAll(async () => {
  await ctx?.close();
  await server?.close();
});

/** The CLI as an operator runs it, beside the in-process server (so never synchronously). */
function storageCopyCli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/storage-copy-cli.ts', ...args],
      { cwd: path.resolve(import.meta.dirname, '..'), env: process.env, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('storage:copy', () => {
  it('copies every file, checked, then skips them all when run again; the app serves each from the bucket', async () => {
    const url = server.storageUrl('moved');
    const keys = (await import('node:fs/promises')).readdir(filesDir, { recursive: true, withFileTypes: true });
    const files = (await keys).filter((entry) => entry.isFile());
    expect(files.length).toBeGreaterThan(5);

    const first = await copyFilesToBucket({ from: filesDir, to: parseS3Url(url) });
    expect(first).toMatchObject({ copied: files.length, alreadyThere: 0 });
    const again = await storageCopyCli('--to', url, '--from', filesDir);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`0 files copied (0 bytes), ${files.length} already in the bucket`);

    // A second app on the same database, its files only in the bucket.
    const empty = mkdtempSync(path.join(os.tmpdir(), 'pss-copy-empty-'));
    const moved = await contextOn(ctx.database, () => Promise.resolve(), {
      env: { STORAGE_URL: url, DATA_DIR: empty },
    });
    try {
      const staff = await bearerFor(moved.app, await createUser(moved.db, { role: 'SUPERADMIN' }));
      const page = (await call(moved, 'GET', '/resource-library?limit=100', staff)).json<ResourcePage>();
      const withFiles = page.items.filter((item: Resource) => item.file);
      expect(withFiles.length).toBeGreaterThan(2);
      for (const resource of withFiles) {
        const details = (
          await call(moved, 'GET', `/resource-library/file/${resource.id}/details`, staff)
        ).json<ResourceFileDetails>();
        const view = await call(moved, 'GET', details.view.url.replace(/^\/api/, ''));
        expect(view.statusCode, resource.name).toBe(200);
        if (details.thumbnail.url) {
          expect((await call(moved, 'GET', details.thumbnail.url.replace(/^\/api/, ''))).statusCode).toBe(200);
        }
      }
      // Every file of the folder, byte for byte, from the bucket.
      const bucket = openFileStorage(storageSetting(url, empty));
      for (const entry of files) {
        const key = path.relative(filesDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
        expect((await bucket.get(key)).equals(readFileSync(path.join(entry.parentPath, entry.name))), key).toBe(true);
      }
    } finally {
      await moved.app.close();
    }
  }, 120_000);

  it('refuses a command without --to, and a URL that is not a bucket', async () => {
    expect((await storageCopyCli()).code).toBe(2);
    const bad = await storageCopyCli('--to', '/var/files');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('s3://bucket');
  });
});
