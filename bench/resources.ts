/**
 * The resource library's benchmark (issue #16), part of `npm run bench` (its `resources`
 * scenario), or alone with `npx tsx bench/resources.ts` (the app in this process):
 *  - a 50 MB MP4 uploaded over HTTP to a real server (the app listening on a port, on
 *    PGlite in a temporary DATA_DIR), sent as a stream: the server's resident memory is
 *    sampled while it arrives and must stay flat (the upload is streamed to disk, its
 *    checks read 1 KB at the start and the atoms' headers, never the whole file);
 *  - the thumbnail of a 20-page PDF, made by the background processing (pdf.js on
 *    @napi-rs/canvas, then sharp): the time from claim to READY.
 */
import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
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

export interface ResourceBenchFigures {
  uploadStatus: number;
  uploadSeconds: number;
  uploadMbPerSecond: number;
  memoryBeforeMb: number | null;
  memoryPeakMb: number | null;
  memoryGrowthMb: number | null;
  thumbnailMs: number;
  thumbnailStatus: string;
  pageCount: number | null;
}

/** The server's resident memory now, from /proc (Linux); null elsewhere. */
function residentMb(pid: number): number | null {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}

/**
 * Against a running server (`base`, a superadmin's token, the server's pid for its memory):
 * uploads a 50 MB video as a stream while sampling the server's memory, then a 20-page PDF,
 * and waits for its thumbnail (made by the server's background worker).
 */
export async function runResourceBench(base: string, token: string, serverPid: number): Promise<ResourceBenchFigures> {
  const before = residentMb(serverPid);
  let peak = before;
  const sampler = setInterval(() => {
    const now = residentMb(serverPid);
    if (now !== null && (peak === null || now > peak)) peak = now;
  }, 20);
  const boundary = `----bench${Date.now()}`;
  const body = videoUpload(VIDEO_BYTES, boundary);
  const url = new URL('/api/resource-library/upload', base);
  const started = performance.now();
  const uploadStatus = await new Promise<number>((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: url.pathname,
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
  const uploadSeconds = (performance.now() - started) / 1000;
  clearInterval(sampler);

  const pdf = pagedPdf(20);
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'twenty pages.pdf');
  const thumbnailStart = performance.now();
  const uploaded = await fetch(new URL('/api/resource-library/upload', base), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const resource = (await uploaded.json()) as { id: string };
  let details: { page_count: number | null; thumbnail_status: string } = {
    page_count: null,
    thumbnail_status: 'PENDING',
  };
  while (details.thumbnail_status === 'PENDING' && performance.now() - thumbnailStart < 120_000) {
    await new Promise((r) => setTimeout(r, 50));
    details = (await (
      await fetch(new URL(`/api/resource-library/file/${resource.id}/details`, base), {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as typeof details;
  }
  return {
    uploadStatus,
    uploadSeconds,
    uploadMbPerSecond: VIDEO_BYTES / MB / uploadSeconds,
    memoryBeforeMb: before,
    memoryPeakMb: peak,
    memoryGrowthMb: before !== null && peak !== null ? peak - before : null,
    thumbnailMs: performance.now() - thumbnailStart,
    thumbnailStatus: details.thumbnail_status,
    pageCount: details.page_count,
  };
}

/** One line a figure, as `npm run bench` prints them. */
export function describeResourceBench(f: ResourceBenchFigures): string[] {
  const mb = (n: number | null) => (n === null ? '?' : n.toFixed(0));
  return [
    `  upload of a ${VIDEO_BYTES / MB} MB MP4, streamed: ${f.uploadStatus} in ${f.uploadSeconds.toFixed(2)} s ` +
      `(${f.uploadMbPerSecond.toFixed(0)} MB/s); server memory ${mb(f.memoryBeforeMb)} MB before, peak ` +
      `${mb(f.memoryPeakMb)} MB (+${mb(f.memoryGrowthMb)} MB)`,
    `  thumbnail of a 20-page PDF: ${f.thumbnailStatus} ${f.thumbnailMs.toFixed(0)} ms after the upload began ` +
      `(${f.pageCount ?? '?'} pages read)`,
  ];
}

/** Alone: the app in this process, on PGlite in a temporary DATA_DIR, its worker running. */
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
  const stopWorker = app.resources.startWorker(1000);
  try {
    await database.db.insert(users).values({
      email: 'bench@example.test',
      passwordHash: await hashPassword('bench-password-1'),
      role: 'SUPERADMIN',
      firstName: 'Bench',
      lastName: 'Superadmin',
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const login = await fetch(`${base}/api/auth/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.test', password: 'bench-password-1' }),
    });
    const { access_token: token } = (await login.json()) as { access_token: string };
    for (const line of describeResourceBench(await runResourceBench(base, token, process.pid))) console.log(line);
  } finally {
    await app.close();
    await stopWorker();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
