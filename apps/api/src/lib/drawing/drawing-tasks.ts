import type { CertificatePdfInput } from '../../modules/certificates/certificate-pdf.js';
import type { Drawn } from '../../modules/resources/thumbnail-drawing.js';

/**
 * What the drawing process (`drawing-process.ts`) is asked to draw, one kind per caller: the
 * pool (`drawing-pool.ts`) and the process agree on these messages, and a new kind of
 * drawing is a member here, a case in the process's switch and an entry of `DrawingResults`.
 */

/**
 * A resource's thumbnail, its file named by its path: the process reads it. Its bytes are not
 * sent over IPC — the API's event loop would copy them there, 0.2 s for a 39 MB PDF, while
 * requests wait.
 */
export interface ThumbnailTask {
  kind: 'THUMBNAIL';
  sourceType: 'IMAGE' | 'PDF';
  path: string;
}

/** A CME certificate's PDF, from what it certifies (small: it crosses over IPC as it is). */
export interface CertificateTask {
  kind: 'CERTIFICATE';
  input: CertificatePdfInput;
}

export type DrawingTask = ThumbnailTask | CertificateTask;

/** What each kind of task answers. */
export interface DrawingResults {
  THUMBNAIL: Drawn;
  CERTIFICATE: Uint8Array;
}

export type DrawingResult<T extends DrawingTask = DrawingTask> = DrawingResults[T['kind']];

export interface TaskMessage {
  id: number;
  task: DrawingTask;
}

export type ResultMessage = { id: number; ok: true; value: DrawingResult } | { id: number; ok: false; message: string };
