import { existsSync } from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import { Piscina } from 'piscina';
import type { DrawTask, Drawn } from './thumbnail-worker.js';

/**
 * The worker thread that draws thumbnails (`thumbnail-worker.ts`), kept off the API's event
 * loop: pdf.js draws a page synchronously, operator by operator, and one hostile PDF held
 * the loop for over a minute (health checks unanswered, 4.4 GiB). Each drawing has a time
 * limit and the thread a heap limit; a thread past either is terminated (piscina ends a
 * thread whose task is aborted, and Node one past its `resourceLimits`), the drawing
 * rejects, and the next drawing starts a new thread. The process stays up.
 */
export interface DrawingLimits {
  /** How long one drawing may take, from being handed to the thread. */
  timeoutMs: number;
  /** The thread's JS heap (pdf.js's operator lists live there). */
  maxHeapMb: number;
}

/**
 * An ordinary first page draws in well under a second; ten seconds on a busy machine is
 * far past any page worth a thumbnail. 256 MB holds the operator lists of a heavy page.
 */
export const DEFAULT_DRAWING_LIMITS: DrawingLimits = { timeoutMs: 10_000, maxHeapMb: 256 };

/** The worker's script: beside the bundle when built (`dist/`), else the TypeScript source loaded through tsx (tests, dev). */
function workerScript(): { filename: string; execArgv: string[] } {
  const built = new URL('./thumbnail-worker.js', import.meta.url);
  if (existsSync(built)) return { filename: built.href, execArgv: [] };
  return { filename: new URL('./thumbnail-worker.ts', import.meta.url).href, execArgv: ['--import', 'tsx'] };
}

/** The bytes as a buffer of their own, so they can be moved to the thread rather than copied. */
function movable(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const { buffer } = bytes;
  if (buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength) {
    return new Uint8Array(buffer);
  }
  return bytes.slice();
}

export function createThumbnailPool(limits: DrawingLimits, log?: FastifyBaseLogger) {
  let pool: Piscina<DrawTask, Drawn> | null = null;
  let closed = false;

  function open(): Piscina<DrawTask, Drawn> {
    const script = workerScript();
    const opened = new Piscina<DrawTask, Drawn>({
      filename: script.filename,
      execArgv: script.execArgv,
      // One drawing at a time per process; no thread kept once idle (pdf.js is heavy to hold).
      minThreads: 0,
      maxThreads: 1,
      idleTimeout: 30_000,
      resourceLimits: { maxOldGenerationSizeMb: limits.maxHeapMb },
      // The thread runs at a lower priority than the API's own (Linux, through @napi-rs/nice).
      niceIncrement: 10,
    });
    // A thread that fails outside any drawing (while starting) must not become an
    // unhandled 'error' event, which would end the process.
    opened.on('error', (error: unknown) => log?.warn({ err: error }, 'thumbnail worker failed'));
    return opened;
  }

  return {
    /** Draws in the thread; rejects when the drawing fails or passes a limit. The bytes are moved there. */
    draw(task: DrawTask): Promise<Drawn> {
      if (closed) return Promise.reject(new Error('The thumbnail pool is closed.'));
      pool ??= open();
      const bytes = movable(task.bytes);
      return pool.run(
        { kind: task.kind, bytes },
        { signal: AbortSignal.timeout(limits.timeoutMs), transferList: [bytes.buffer] },
      );
    },

    /** Ends the thread for good (the app's close); a drawing under way rejects. */
    async close(): Promise<void> {
      closed = true;
      const closing = pool;
      pool = null;
      await closing?.destroy();
    },
  };
}

export type ThumbnailPool = ReturnType<typeof createThumbnailPool>;
