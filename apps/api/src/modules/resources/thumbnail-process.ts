import { draw, type DrawTask } from './thumbnail-drawing.js';

/**
 * The drawing process's entry (`thumbnail-pool.ts` starts it with `fork`): takes one task at a
 * time over IPC and answers with the drawing or the failure's message. Nothing else runs here,
 * so a hostile file that exhausts this process's heap ends this process, never the API.
 */
export interface TaskMessage {
  id: number;
  task: DrawTask;
}

export type ResultMessage =
  { id: number; ok: true; value: Awaited<ReturnType<typeof draw>> } | { id: number; ok: false; message: string };

function answer(message: ResultMessage): void {
  process.send?.(message);
}

process.on('message', (message: TaskMessage) => {
  // A Node Buffer arrives as a Buffer; pdf.js takes a plain Uint8Array only.
  const { bytes } = message.task;
  const plain = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  draw({ kind: message.task.kind, bytes: plain }).then(
    (value) => answer({ id: message.id, ok: true, value }),
    (error: unknown) =>
      answer({ id: message.id, ok: false, message: error instanceof Error ? error.message : String(error) }),
  );
});
// The API ending (or the pool closing the channel) ends this process too.
process.on('disconnect', () => process.exit(0));
