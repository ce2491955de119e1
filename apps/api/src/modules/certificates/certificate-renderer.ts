import type { FastifyBaseLogger } from 'fastify';
import { createDrawingPool, type DrawingLimits } from '../../lib/drawing/drawing-pool.js';
import type { CertificatePdfInput } from './certificate-pdf.js';

// The drawing this module asks of the drawing pool; the drawing process's entry
// (`apps/api/src/drawing-process.ts`) draws it with `drawCertificatePdf`.
declare module '../../lib/drawing/drawing-tasks.js' {
  interface DrawingKinds {
    /** A CME certificate's PDF, from what it certifies (small: it crosses over IPC as it is). */
    CERTIFICATE: { input: CertificatePdfInput; output: Uint8Array };
  }
}

/**
 * A certificate drawn in ordinary time is a tenth of a second; ten seconds on a busy machine
 * means something is wrong, and the person waiting for the download gets an error instead.
 * pdfkit and the two fonts are far below the heap limit.
 */
export const CERTIFICATE_DRAWING_LIMITS: DrawingLimits = { timeoutMs: 10_000, maxHeapMb: 256 };

/**
 * An idle certificate process is kept this long. Its first drawing starts a process and loads
 * pdfkit and the fonts: a second and more on a busy machine (issue #48), which a person waiting
 * for a download would wait for each time the process had gone after the default half minute.
 * Without pdf.js it holds little (about 60 MB), so it stays while certificates are looked at.
 */
export const CERTIFICATE_IDLE_MS = 10 * 60_000;

/** What the warm-up draws: a certificate like any, of cases and a name in both fonts (its result is dropped). */
const WARM_UP: CertificatePdfInput = {
  participantName: 'Warm-up Ådne Łukasz',
  profession: 'MD',
  projectName: 'Warm-up',
  clientName: 'Warm-up',
  credits: 1,
  mocPoints: 1,
  courseId: 'WARM-UP',
  issuedAt: '2026-01-01T00:00:00.000Z',
  revokedAt: null,
  code: 'WARMUPWARMUPWARMUP',
  verifyUrl: 'http://localhost/verify/WARMUP',
  cases: [{ case_name: 'Warm-up case', submitted_at: '2026-01-01T00:00:00.000Z' }],
};

/**
 * Draws certificates' PDFs in the drawing process (`lib/drawing/drawing-pool.ts`), never on the
 * API's event loop: laying out text and subsetting fonts is CPU work a request would wait
 * behind. A drawing that fails or passes a limit rejects; the API stays up.
 *
 * A pool of its own rather than the resource thumbnails': a person waits for a download, and
 * a queue of uploads' thumbnails (ten seconds each at worst) must not stand in front of it. Its
 * process starts when a list of certificates is read (`warm`: the download that follows finds
 * it ready) or with a download, and ends after ten minutes idle, so it costs nothing while no
 * one looks at certificates.
 */
export function createCertificateRenderer(
  deps: { log?: FastifyBaseLogger; limits?: DrawingLimits; idleMs?: number } = {},
) {
  const pool = createDrawingPool({
    name: 'certificate',
    limits: deps.limits ?? CERTIFICATE_DRAWING_LIMITS,
    log: deps.log,
    idleMs: deps.idleMs ?? CERTIFICATE_IDLE_MS,
  });
  return {
    /** The certificate's PDF; rejects when the drawing fails, passes a limit or the renderer is closed. */
    render(input: CertificatePdfInput): Promise<Uint8Array> {
      return pool.draw('CERTIFICATE', input);
    },

    /**
     * Readies the drawing process for a download to come (a list of certificates was read):
     * started, with pdfkit and the fonts loaded by a drawing of its own. Nothing when it runs.
     */
    warm(): boolean {
      return pool.warm('CERTIFICATE', WARM_UP);
    },

    /** Whether the drawing process is up. */
    running(): boolean {
      return pool.running();
    },

    /** Ends the drawing process (the app's close); a drawing under way rejects. */
    close(): Promise<void> {
      return pool.close();
    },
  };
}

export type CertificateRenderer = ReturnType<typeof createCertificateRenderer>;
