import type { FastifyBaseLogger } from 'fastify';
import { createDrawingPool, type DrawingLimits } from '../../lib/drawing/drawing-pool.js';
import type { CertificatePdfInput } from './certificate-pdf.js';

/**
 * A certificate drawn in ordinary time is a tenth of a second; ten seconds on a busy machine
 * means something is wrong, and the person waiting for the download gets an error instead.
 * pdfkit and the two fonts are far below the heap limit.
 */
export const CERTIFICATE_DRAWING_LIMITS: DrawingLimits = { timeoutMs: 10_000, maxHeapMb: 256 };

/**
 * Draws certificates' PDFs in the drawing process (`lib/drawing/drawing-pool.ts`), never on the
 * API's event loop: laying out text and subsetting fonts is CPU work a request would wait
 * behind. A drawing that fails or passes a limit rejects; the API stays up.
 *
 * A pool of its own rather than the resource thumbnails': a person waits for a download, and
 * a queue of uploads' thumbnails (ten seconds each at worst) must not stand in front of it. Its
 * process starts with the first download and ends after half a minute idle, so it costs
 * nothing while no one downloads.
 */
export function createCertificateRenderer(deps: { log?: FastifyBaseLogger; limits?: DrawingLimits } = {}) {
  const pool = createDrawingPool({
    name: 'certificate',
    limits: deps.limits ?? CERTIFICATE_DRAWING_LIMITS,
    log: deps.log,
  });
  return {
    /** The certificate's PDF; rejects when the drawing fails, passes a limit or the renderer is closed. */
    render(input: CertificatePdfInput): Promise<Uint8Array> {
      return pool.draw({ kind: 'CERTIFICATE', input });
    },

    /** Ends the drawing process (the app's close); a drawing under way rejects. */
    close(): Promise<void> {
      return pool.close();
    },
  };
}

export type CertificateRenderer = ReturnType<typeof createCertificateRenderer>;
