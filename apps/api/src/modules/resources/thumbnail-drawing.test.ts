import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { hugeImagePdf, hugePng, manyRectanglesPdf } from '../../../test/hostile-resource-files.js';
import { pagedPdf, pngImage } from '../../../test/resource-files.js';
import { createDrawingPool, type DrawingLimits } from '../../lib/drawing/drawing-pool.js';

const folder = mkdtempSync(path.join(os.tmpdir(), 'pss-drawing-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let written = 0;

/** A pool that draws bytes: each is written to a file first, which the drawing process reads. */
function poolWith(limits: DrawingLimits) {
  const pool = createDrawingPool({ name: 'thumbnail', limits });
  onTestFinished(() => pool.close());
  return {
    draw({ kind, bytes }: { kind: 'IMAGE' | 'PDF'; bytes: Uint8Array }) {
      const file = path.join(folder, `${(written += 1)}`);
      writeFileSync(file, bytes);
      return pool.draw('THUMBNAIL', { sourceType: kind, path: file });
    },
  };
}

const isWebp = (bytes: Uint8Array) => Buffer.from(bytes).subarray(8, 12).toString('latin1') === 'WEBP';

describe('the thumbnail drawing process', () => {
  it('draws a PDF’s first page and an image, and tells their pages and size', async () => {
    const pool = poolWith({ timeoutMs: 20_000, maxHeapMb: 256 });
    const pdf = await pool.draw({ kind: 'PDF', bytes: pagedPdf(3) });
    expect(pdf.media).toEqual({ pageCount: 3 });
    expect(isWebp(pdf.thumbnail)).toBe(true);
    const image = await pool.draw({ kind: 'IMAGE', bytes: await pngImage(800, 600) });
    expect(image.media).toEqual({ width: 800, height: 600 });
    expect(isWebp(image.thumbnail)).toBe(true);
  });

  it('ends a drawing past its time limit with its process; the next drawing gets a new one', async () => {
    // Long enough for a new thread to start and draw an ordinary page on a busy machine.
    const pool = poolWith({ timeoutMs: 8000, maxHeapMb: 256 });
    const started = performance.now();
    await expect(pool.draw({ kind: 'PDF', bytes: manyRectanglesPdf() })).rejects.toThrow(/aborted/);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect((await pool.draw({ kind: 'PDF', bytes: pagedPdf(2) })).media).toEqual({ pageCount: 2 });
  }, 30_000);

  it('ends a drawing process past its heap limit; the API stays up and the next drawing gets a new process', async () => {
    const pool = poolWith({ timeoutMs: 60_000, maxHeapMb: 128 });
    await expect(pool.draw({ kind: 'PDF', bytes: manyRectanglesPdf() })).rejects.toThrow(/memory limit/);
    expect((await pool.draw({ kind: 'PDF', bytes: pagedPdf(2) })).media).toEqual({ pageCount: 2 });
  }, 60_000);

  it('leaves out a PDF’s image past maxImageSize and refuses an image past sharp’s pixel limit, undecoded', async () => {
    const pool = poolWith({ timeoutMs: 20_000, maxHeapMb: 256 });
    const started = performance.now();
    const page = await pool.draw({ kind: 'PDF', bytes: hugeImagePdf() });
    expect(page.media).toEqual({ pageCount: 1 });
    await expect(pool.draw({ kind: 'IMAGE', bytes: hugePng() })).rejects.toThrow(/pixel limit/);
    // Decoding 400 million pixels takes far longer than this (14 s on the main thread once).
    expect(performance.now() - started).toBeLessThan(8000);
  }, 30_000);
});
