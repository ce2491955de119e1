import { serveDrawings } from './lib/drawing/drawing-server.js';
import { drawCertificatePdf } from './modules/certificates/certificate-pdf.js';
import { drawThumbnail } from './modules/resources/thumbnail-drawing.js';

/**
 * The drawing process's entry (`lib/drawing/drawing-pool.ts` forks it; built, it is
 * `dist/drawing-process.js`): each kind of drawing with the module's code that draws it. A kind
 * a module adds to `DrawingKinds` fails the type check here until it has its drawer.
 */
serveDrawings({
  THUMBNAIL: drawThumbnail,
  CERTIFICATE: drawCertificatePdf,
});
