import { readFile } from 'node:fs/promises';
import { drawCertificatePdf } from '../../modules/certificates/certificate-pdf.js';
import { draw } from '../../modules/resources/thumbnail-drawing.js';
import type { DrawingResult, DrawingTask, ResultMessage, TaskMessage } from './drawing-tasks.js';

/**
 * The drawing process's entry (`drawing-pool.ts` starts it with `fork`): takes one task at a
 * time over IPC and answers with the drawing or the failure's message. Nothing else runs here,
 * so a hostile file that exhausts this process's heap ends this process, never the API.
 *
 * One script draws every kind, so one build entry and one way of finding it serve every pool.
 * What each kind needs loads with the script (sharp, pdfkit: a few megabytes), except pdf.js,
 * the heavy one, which `thumbnail-drawing.ts` imports with the first PDF it draws.
 */
function answer(message: ResultMessage): void {
  process.send?.(message);
}

async function perform(task: DrawingTask): Promise<DrawingResult> {
  switch (task.kind) {
    case 'THUMBNAIL': {
      const bytes = await readFile(task.path);
      // pdf.js takes a plain Uint8Array only, not a Node Buffer.
      return draw({ kind: task.sourceType, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
    }
    case 'CERTIFICATE':
      return drawCertificatePdf(task.input);
  }
}

process.on('message', (message: TaskMessage) => {
  perform(message.task).then(
    (value) => answer({ id: message.id, ok: true, value }),
    (error: unknown) =>
      answer({ id: message.id, ok: false, message: error instanceof Error ? error.message : String(error) }),
  );
});
// The API ending (or the pool closing the channel) ends this process too.
process.on('disconnect', () => process.exit(0));
