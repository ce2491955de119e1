import { readFile } from 'node:fs/promises';
import { draw, type DrawTask } from './thumbnail-drawing.js';

/**
 * The drawing process's entry (`thumbnail-pool.ts` starts it with `fork`): takes one task at a
 * time over IPC and answers with the drawing or the failure's message. Nothing else runs here,
 * so a hostile file that exhausts this process's heap ends this process, never the API.
 */
export interface TaskMessage {
  id: number;
  task: DrawFileTask;
}

/**
 * A file to draw, named by its path: this process reads it. Its bytes are not sent over IPC —
 * the API's event loop would copy them there, 0.2 s for a 39 MB PDF, while requests wait.
 */
export interface DrawFileTask {
  kind: DrawTask['kind'];
  path: string;
}

export type ResultMessage =
  { id: number; ok: true; value: Awaited<ReturnType<typeof draw>> } | { id: number; ok: false; message: string };

function answer(message: ResultMessage): void {
  process.send?.(message);
}

async function drawFile(task: DrawFileTask) {
  const bytes = await readFile(task.path);
  // pdf.js takes a plain Uint8Array only, not a Node Buffer.
  return draw({ kind: task.kind, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
}

process.on('message', (message: TaskMessage) => {
  drawFile(message.task).then(
    (value) => answer({ id: message.id, ok: true, value }),
    (error: unknown) =>
      answer({ id: message.id, ok: false, message: error instanceof Error ? error.message : String(error) }),
  );
});
// The API ending (or the pool closing the channel) ends this process too.
process.on('disconnect', () => process.exit(0));
