import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Resource, ResourceFileDetails } from '@pss/contract';
import { call } from './kit.js';
import { multipartFile, twoClients } from './fixtures.js';
import { pagedPdf } from './resource-files.js';
import { startS3Server, type S3TestServer } from './s3-server.js';
import { contextOn, createTestContext, type TestContext } from './test-app.js';

/**
 * Every file in an S3-protocol bucket (issue #50): a real server (s3rver) started here, the
 * app's uploads and thumbnails found in it by an independent client (Debian's s3cmd), and a
 * second app with an empty DATA_DIR, on the same database, serving the same files.
 */
let server: S3TestServer;
let ctx: TestContext;
let second: TestContext;
let asSuperadmin: Record<string, string>;
const dataDirs: string[] = [];

beforeAll(async () => {
  server = await startS3Server();
  const env = (name: string) => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), `pss-${name}-`));
    dataDirs.push(dataDir);
    return { STORAGE_URL: server.storageUrl('app'), DATA_DIR: dataDir };
  };
  ctx = await createTestContext({ env: env('first') });
  second = await contextOn(ctx.database, () => Promise.resolve(), { env: env('second') });
  ({ asSuperadmin } = await twoClients(ctx));
});
afterAll(async () => {
  await second?.app.close();
  await ctx?.close();
  await server?.close();
});

const pathOf = (url: string) => url.replace(/^\/api/, '');

/** The app's keys in the bucket, as s3cmd lists them. */
async function bucketKeys(): Promise<string[]> {
  const listed = await server.s3cmd('ls', '--recursive', `s3://${server.bucket}/app/`);
  expect(listed.status, listed.stderr).toBe(0);
  return listed.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split(/\s+/).pop()!);
}

describe('files in object storage', () => {
  it('keeps an upload and its thumbnail in the bucket, served by a second app that has no file of its own', async () => {
    const file = multipartFile(pagedPdf(2), 'Sepsis bundle.pdf');
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/resource-library/upload',
      headers: { ...asSuperadmin, ...file.headers },
      payload: file.payload,
    });
    expect(response.statusCode, response.body).toBe(201);
    const resource = response.json<Resource>();
    expect(await ctx.app.resources.runPending()).toBe(1);

    const details = (
      await call(ctx, 'GET', `/resource-library/file/${resource.id}/details`, asSuperadmin)
    ).json<ResourceFileDetails>();
    expect(details).toMatchObject({ page_count: 2, thumbnail_status: 'READY' });
    const original = await call(ctx, 'GET', pathOf(details.view.url));
    expect(original.statusCode).toBe(200);
    expect(original.rawPayload.equals(pagedPdf(2))).toBe(true);
    const thumbnail = await call(ctx, 'GET', pathOf(details.thumbnail.url!));
    expect(thumbnail.headers['content-type']).toBe('image/webp');

    // In the bucket, as another client sees it; and nothing under either app's DATA_DIR/files.
    const keys = await bucketKeys();
    expect(keys.filter((key) => key.includes('/resources/'))).toHaveLength(2);
    const originalKey = keys.find((key) => !key.includes('/thumbnails/'))!;
    const fetched = path.join(dataDirs[0]!, 'fetched.pdf');
    expect((await server.s3cmd('get', originalKey, fetched)).status).toBe(0);
    expect(readFileSync(fetched).equals(pagedPdf(2))).toBe(true);
    rmSync(fetched);
    expect(readdirSync(dataDirs[0]!).includes('files')).toBe(false);

    // The second app, on its own empty DATA_DIR: the same bytes, partly too.
    const again = await call(second, 'GET', pathOf(details.view.url));
    expect(again.statusCode).toBe(200);
    expect(again.rawPayload.equals(original.rawPayload)).toBe(true);
    const part = await second.app.inject({ method: 'GET', url: details.view.url, headers: { range: 'bytes=0-4' } });
    expect(part.statusCode).toBe(206);
    expect(part.body).toBe('%PDF-');
    expect((await call(second, 'GET', pathOf(details.thumbnail.url!))).rawPayload.equals(thumbnail.rawPayload)).toBe(
      true,
    );
    expect(readdirSync(dataDirs[1]!).includes('files')).toBe(false);
  });

  it('answers FILE_MISSING for a file the bucket lost, and the ready check finds the bucket', async () => {
    const before = await bucketKeys();
    const file = multipartFile(pagedPdf(1), 'Lost.pdf');
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/resource-library/upload',
      headers: { ...asSuperadmin, ...file.headers },
      payload: file.payload,
    });
    const resource = response.json<Resource>();
    const details = (
      await call(ctx, 'GET', `/resource-library/file/${resource.id}/details`, asSuperadmin)
    ).json<ResourceFileDetails>();
    const [lost] = (await bucketKeys()).filter((key) => !before.includes(key));
    expect((await server.s3cmd('del', lost!)).status).toBe(0);
    const gone = await call(second, 'GET', pathOf(details.view.url));
    expect(gone.statusCode, gone.body).toBe(404);
    expect(gone.json()).toMatchObject({ errorCode: 'FILE_MISSING' });

    const ready = await second.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.json()).toMatchObject({
      checks: { storage: true },
    });
  });
});
