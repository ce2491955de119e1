import type { Drawers, ResultMessage, TaskMessage } from './drawing-tasks.js';

/**
 * The drawing process's side of the pool (`drawing-pool.ts` starts it with `fork`): takes one
 * task at a time over IPC and answers with the drawing or the failure's message. Nothing else
 * runs there, so a hostile file that exhausts that process's heap ends it, never the API. Its
 * entry (`apps/api/src/drawing-process.ts`) calls this with every kind's drawer.
 *
 * One script draws every kind, so one build entry and one way of finding it serve every pool.
 * What each kind needs loads with the script (sharp, pdfkit: a few megabytes), except pdf.js,
 * the heavy one, which `thumbnail-drawing.ts` imports with the first PDF it draws.
 */
export function serveDrawings(drawers: Drawers): void {
  const answer = (message: ResultMessage) => process.send?.(message);
  // Each kind's drawer is called with its kind's input: the pool sent them together.
  const perform = ({ kind, input }: TaskMessage) => (drawers[kind] as (input: unknown) => Promise<unknown>)(input);

  process.on('message', (message: TaskMessage) => {
    perform(message).then(
      (value) => answer({ id: message.id, ok: true, value }),
      (error: unknown) =>
        answer({ id: message.id, ok: false, message: error instanceof Error ? error.message : String(error) }),
    );
  });
  // The API ending (or the pool closing the channel) ends this process too.
  process.on('disconnect', () => process.exit(0));
}
