import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/**
 * pdfjs-dist's `standard_fonts/` folder (an installed dependency, so no system font is needed):
 * its Foxit and Liberation fonts stand in for the 14 standard PDF fonts when pdf.js draws a
 * thumbnail.
 */
export const STANDARD_FONTS_FOLDER = path.join(
  path.dirname(require.resolve('pdfjs-dist/package.json')),
  'standard_fonts',
);
