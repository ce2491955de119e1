import { createRequire } from 'node:module';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import sharp from 'sharp';
import type { Db } from '../../db/client.js';
import type { ResourceMedia } from '../../db/schema/index.js';
import type { Clock } from '../../lib/clock.js';
import type { FileStorage } from '../../lib/storage.js';
import { topLevelAtoms, videoDuration } from './resource-content.js';
import { createResourcesRepository, type ResourceRecord } from './resources.repository.js';

/**
 * What is made from a file after its upload, in the background: a thumbnail for an image
 * (sharp) and for a PDF's first page (pdf.js drawing on @napi-rs/canvas, both installed by
 * npm: no system binary), the pages of a PDF, the size of an image and the length of a
 * video. Every API process runs a worker that claims one waiting file at a time
 * (`FOR UPDATE SKIP LOCKED`, with a lease), so two processes never make one thumbnail twice,
 * and a file whose process died is taken over once its lease has run out.
 */
export const THUMBNAIL_WIDTH = 320;
const LEASE_MS = 5 * 60 * 1000;

const require = createRequire(import.meta.url);
/** pdf.js's own copies of the 14 standard PDF fonts, so text draws without system fonts. */
const standardFontDataUrl = `${path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

/** The first page of a PDF as a PNG `width` pixels wide, and the document's page count. */
export async function renderPdfFirstPage(pdf: Uint8Array, width: number): Promise<{ png: Buffer; pageCount: number }> {
  const [{ getDocument }, { createCanvas }] = await Promise.all([
    import('pdfjs-dist/legacy/build/pdf.mjs'),
    import('@napi-rs/canvas'),
  ]);
  const document = await getDocument({
    data: pdf,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    standardFontDataUrl,
    verbosity: 0,
  }).promise;
  try {
    const page = await document.getPage(1);
    const unscaled = page.getViewport({ scale: 1 });
    const viewport = page.getViewport({ scale: Math.min(4, width / unscaled.width) });
    const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    // pdf.js is typed for the DOM's canvas; @napi-rs/canvas implements what it draws with.
    type RenderParameters = Parameters<typeof page.render>[0];
    await page.render({
      canvas: canvas as unknown as RenderParameters['canvas'],
      canvasContext: context as unknown as RenderParameters['canvasContext'],
      viewport,
    }).promise;
    return { png: await canvas.encode('png'), pageCount: document.numPages };
  } finally {
    await document.destroy();
  }
}

export function createResourceProcessing(deps: {
  db: Db;
  storage: FileStorage;
  clock: Clock;
  log?: FastifyBaseLogger;
  leaseMs?: number;
}) {
  const { storage } = deps;
  const repository = createResourcesRepository(deps.db);
  const leaseMs = deps.leaseMs ?? LEASE_MS;

  async function thumbnailOf(image: Buffer | Uint8Array): Promise<Buffer> {
    return sharp(image, { limitInputPixels: 100_000_000 })
      .rotate()
      .resize({ width: THUMBNAIL_WIDTH, height: THUMBNAIL_WIDTH * 2, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .webp({ quality: 80 })
      .toBuffer();
  }

  /** Makes what this file needs: its thumbnail (images, PDFs) and media facts. */
  async function process(row: ResourceRecord): Promise<{ thumbnail: Buffer | null; media: ResourceMedia }> {
    const file = row.file!;
    if (row.sourceType === 'IMAGE') {
      const bytes = await storage.get(file.key);
      const meta = await sharp(bytes).metadata();
      return { thumbnail: await thumbnailOf(bytes), media: { width: meta.width, height: meta.height } };
    }
    if (row.sourceType === 'PDF') {
      const bytes = await storage.get(file.key);
      const { png, pageCount } = await renderPdfFirstPage(new Uint8Array(bytes), THUMBNAIL_WIDTH * 2);
      return { thumbnail: await thumbnailOf(png), media: { pageCount } };
    }
    const atoms = await topLevelAtoms(storage, file.key, file.bytes);
    const duration = atoms ? await videoDuration(storage, file.key, atoms) : null;
    return { thumbnail: null, media: duration === null ? {} : { durationSeconds: duration } };
  }

  let running: Promise<number> | null = null;

  /** Processes every waiting file, one after the other; answers how many were taken. */
  async function runPending(): Promise<number> {
    let done = 0;
    for (;;) {
      const now = deps.clock.now();
      const row = await repository.claimProcessing(now, new Date(now.getTime() - leaseMs));
      if (!row) return done;
      done += 1;
      const claimedAt = now;
      let thumbnailKey: string | null = null;
      try {
        const made = await process(row);
        if (made.thumbnail) {
          thumbnailKey = `resources/thumbnails/${randomUUID()}.webp`;
          await storage.put(thumbnailKey, made.thumbnail);
        }
        const kept = await repository.finishProcessing(row.id, claimedAt, {
          status: 'READY',
          thumbnailKey,
          media: made.media,
        });
        if (!kept && thumbnailKey) await storage.remove(thumbnailKey);
        if (kept && row.thumbnailKey && row.thumbnailKey !== thumbnailKey) await storage.remove(row.thumbnailKey);
      } catch (error) {
        if (thumbnailKey) await storage.remove(thumbnailKey);
        deps.log?.warn({ err: error, resourceId: row.id }, 'resource thumbnail failed');
        await repository.finishProcessing(row.id, claimedAt, { status: 'FAILED', thumbnailKey: null, media: null });
      }
    }
  }

  let started = false;
  let wakeUp: (() => void) | null = null;

  return {
    /** Runs what is waiting now (tests; the worker calls it too). One run at a time per process. */
    runPending(): Promise<number> {
      running ??= runPending().finally(() => {
        running = null;
      });
      return running;
    },

    /** Tells the worker an upload is waiting (nothing when no worker runs, as in tests). */
    wake(): void {
      if (started) wakeUp?.();
    },

    /** Runs in the background: at once when woken, and every `pollMs` for what another process left. */
    startWorker(pollMs = 5000): () => Promise<void> {
      started = true;
      let stopped = false;
      let timer: NodeJS.Timeout | null = null;
      let current: Promise<unknown> = Promise.resolve();
      const tick = () => {
        if (timer) clearTimeout(timer);
        timer = null;
        current = this.runPending()
          .catch((error: unknown) => deps.log?.error({ err: error }, 'resource worker tick failed'))
          .finally(() => {
            if (!stopped) timer = setTimeout(tick, pollMs);
          });
      };
      wakeUp = () => {
        if (!stopped && timer) tick();
      };
      tick();
      return async () => {
        stopped = true;
        started = false;
        if (timer) clearTimeout(timer);
        await current;
      };
    },
  };
}

export type ResourceProcessing = ReturnType<typeof createResourceProcessing>;
