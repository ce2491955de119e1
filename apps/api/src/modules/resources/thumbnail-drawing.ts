import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import type { ResourceMedia } from '../../db/schema/index.js';

/**
 * Draws a thumbnail, in the drawing process of `lib/drawing/drawing-pool.ts` (whose entry,
 * `apps/api/src/drawing-process.ts`, hands it the THUMBNAIL kind), never on the API's event
 * loop: a hostile file (a page of millions of rectangles, a 20000 × 20000 image) keeps that
 * process busy, not the server, and the pool's time and memory limits end it. An image is
 * scaled by sharp; a PDF's first page is drawn by pdf.js on @napi-rs/canvas (both installed by
 * npm: no system binary), then scaled by sharp.
 */
export const THUMBNAIL_WIDTH = 320;

/**
 * pdf.js leaves out an image larger than this (pixels) instead of decoding it: its pixels
 * live outside the JS heap, where the drawing process's heap limit does not reach. 50 million is a
 * letter page scanned at 600 dpi with room to spare.
 */
export const PDF_MAX_IMAGE_PIXELS = 50_000_000;
/** sharp refuses a larger image before decoding it (a 100-megapixel photo still passes). */
export const IMAGE_MAX_PIXELS = 100_000_000;

export interface DrawTask {
  kind: 'IMAGE' | 'PDF';
  bytes: Uint8Array;
}

export interface Drawn {
  thumbnail: Uint8Array;
  media: ResourceMedia;
}

/**
 * A resource's thumbnail, its file named by its path: the drawing process reads it. Its bytes
 * are not sent over IPC — the API's event loop would copy them there, 0.2 s for a 39 MB PDF,
 * while requests wait.
 */
export interface ThumbnailTask {
  sourceType: 'IMAGE' | 'PDF';
  path: string;
}

// The drawing this module asks of the drawing pool (`resource-processing.ts`).
declare module '../../lib/drawing/drawing-tasks.js' {
  interface DrawingKinds {
    THUMBNAIL: { input: ThumbnailTask; output: Drawn };
  }
}

const require = createRequire(import.meta.url);
/** pdf.js's own copies of the 14 standard PDF fonts, so text draws without system fonts. */
const standardFontDataUrl = `${path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

// One libvips thread and no cache: the API needs the other core, and the drawing process
// draws one file at a time.
sharp.concurrency(1);
sharp.cache(false);

/** The first page of a PDF as a PNG at most `width` pixels wide and twice as high, and the page count. */
export async function renderPdfFirstPage(pdf: Uint8Array, width: number): Promise<{ png: Buffer; pageCount: number }> {
  const [{ getDocument }, { createCanvas }] = await Promise.all([
    import('pdfjs-dist/legacy/build/pdf.mjs'),
    import('@napi-rs/canvas'),
  ]);
  const document = await getDocument({
    data: pdf,
    isEvalSupported: false,
    isOffscreenCanvasSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    standardFontDataUrl,
    maxImageSize: PDF_MAX_IMAGE_PIXELS,
    verbosity: 0,
  }).promise;
  try {
    const page = await document.getPage(1);
    const unscaled = page.getViewport({ scale: 1 });
    // Bounded both ways, so an absurdly tall or wide page cannot ask for a huge canvas.
    const scale = Math.min(4, width / unscaled.width, (2 * width) / unscaled.height);
    const viewport = page.getViewport({ scale });
    const canvas = createCanvas(Math.max(1, Math.ceil(viewport.width)), Math.max(1, Math.ceil(viewport.height)));
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

function thumbnailOf(image: Uint8Array): Promise<Buffer> {
  return sharp(image, { limitInputPixels: IMAGE_MAX_PIXELS })
    .rotate()
    .resize({ width: THUMBNAIL_WIDTH, height: THUMBNAIL_WIDTH * 2, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .webp({ quality: 80 })
    .toBuffer();
}

/** The pool's task: a file's thumbnail (320 px WebP) and what was learnt drawing it. */
export async function draw(task: DrawTask): Promise<Drawn> {
  if (task.kind === 'IMAGE') {
    const meta = await sharp(task.bytes, { limitInputPixels: IMAGE_MAX_PIXELS }).metadata();
    return { thumbnail: await thumbnailOf(task.bytes), media: { width: meta.width, height: meta.height } };
  }
  const { png, pageCount } = await renderPdfFirstPage(task.bytes, THUMBNAIL_WIDTH * 2);
  return { thumbnail: await thumbnailOf(png), media: { pageCount } };
}

/** The drawing process's THUMBNAIL drawer: reads the file, then draws it. */
export async function drawThumbnail(task: ThumbnailTask): Promise<Drawn> {
  const bytes = await readFile(task.path);
  // pdf.js takes a plain Uint8Array only, not a Node Buffer.
  return draw({ kind: task.sourceType, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
}
