/**
 * The resource library's benchmark (issue #16), run with `npx tsx bench/resources.ts`:
 *  - a 50 MB MP4 uploaded over HTTP to a real server (the app listening on a port, on
 *    PGlite in a temporary DATA_DIR), sent as a stream: the server's resident memory is
 *    sampled while it arrives and must stay flat (the upload is streamed to disk, its
 *    checks read 1 KB at the start and the atoms' headers, never the whole file);
 *  - the thumbnail of a 20-page PDF, made by the background processing (pdf.js on
 *    @napi-rs/canvas, then sharp): the time from claim to READY.
 */
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../apps/api/src/app.js';
import { loadConfig } from '../apps/api/src/config.js';
import { openDatabase } from '../apps/api/src/db/client.js';
import { users } from '../apps/api/src/db/schema/index.js';
import { hashPassword } from '../apps/api/src/lib/passwords.js';
import { pagedPdf } from '../apps/api/test/resource-files.js';

const MB = 1024 * 1024;
const VIDEO_BYTES = 50 * MB;

function atom(type: string, body: Buffer): Buffer {
  const size = Buffer.alloc(4);
  size.writeUInt32BE(8 + body.length);
  return Buffer.concat([size, Buffer.from(type, 'latin1'), body]);
}

/** A multipart body of one MP4 of `bytes`, generated 1 MB at a time as it is sent. */
function videoUpload(bytes: number, boundary: string): { stream: Readable; length: number } {
  const ftyp = atom('ftyp', Buffer.from('isom\0\0\0\0isom', 'latin1'));
  const mvhd = Buffer.alloc(100);
  mvhd.writeUInt32BE(1000, 12);
  mvhd.writeUInt32BE(600_000, 16);
  const moov = atom('moov', atom('mvhd', mvhd));
  const mediaBytes = bytes - ftyp.length - moov.length - 8;
  const mdatHeader = Buffer.alloc(8);
  mdatHeader.writeUInt32BE(mediaBytes + 8);
  mdatHeader.write('mdat', 4, 'latin1');
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="lecture.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(MB, 0x11);
  async function* parts() {
    yield head;
    yield ftyp;
    yield mdatHeader;
    for (let left = mediaBytes; left > 0; left -= MB) yield left >= MB ? chunk : chunk.subarray(0, left);
    yield moov;
    yield tail;
  }
  return { stream: Readable.from(parts()), length: head.length + bytes + tail.length };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pss-bench-resources-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    SESSION_SECRET: 'bench-secret-that-is-long-enough-for-hs256-signing',
    DATA_DIR: dataDir,
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    LOG_LEVEL: 'silent',
  });
  const database = await openDatabase({ pgliteDataDir: path.join(dataDir, 'pglite') });
  await database.migrate();
  const app = await buildApp({ config, database, logger: false });
  try {
    await database.db.insert(users).values({
      email: 'bench@example.test',
      passwordHash: await hashPassword('bench-password-1'),
      role: 'SUPERADMIN',
      firstName: 'Bench',
      lastName: 'Superadmin',
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    const login = await fetch(`http://127.0.0.1:${port}/api/auth/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.test', password: 'bench-password-1' }),
    });
    const { access_token: token } = (await login.json()) as { access_token: string };

    // 1. A 50 MB video, streamed.
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    const boundary = `----bench${Date.now()}`;
    const body = videoUpload(VIDEO_BYTES, boundary);
    const started = performance.now();
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/resource-library/upload',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'content-length': body.length,
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      body.stream.pipe(req);
    });
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    console.log(
      `upload of a 50 MB MP4: ${status}, ${seconds.toFixed(2)} s (${(VIDEO_BYTES / MB / seconds).toFixed(0)} MB/s); ` +
        `server RSS ${(baseline / MB).toFixed(0)} MB before, peak ${(peak / MB).toFixed(0)} MB ` +
        `(+${((peak - baseline) / MB).toFixed(0)} MB for a ${VIDEO_BYTES / MB} MB file)`,
    );
    const videoStart = performance.now();
    await app.resources.runPending();
    console.log(`video length read from its atoms: ${(performance.now() - videoStart).toFixed(0)} ms`);

    // 2. The thumbnail of a 20-page PDF.
    const pdf = pagedPdf(20);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'twenty pages.pdf');
    const uploaded = await fetch(`http://127.0.0.1:${port}/api/resource-library/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const resource = (await uploaded.json()) as { id: string };
    const thumbnailStart = performance.now();
    await app.resources.runPending();
    const thumbnailMs = performance.now() - thumbnailStart;
    const details = (await (
      await fetch(`http://127.0.0.1:${port}/api/resource-library/file/${resource.id}/details`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { page_count: number; thumbnail_status: string };
    console.log(
      `thumbnail of a 20-page PDF (${(pdf.length / 1024).toFixed(0)} KB): ${thumbnailMs.toFixed(0)} ms, ` +
        `${details.thumbnail_status}, ${details.page_count} pages read`,
    );
  } finally {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
