/**
 * What the drawing process is asked to draw. Each kind of drawing belongs to the module that
 * draws it, which adds it to `DrawingKinds` beside its drawing code (what the kind takes and
 * answers: `declare module '…/lib/drawing/drawing-tasks.js'`); the drawing process's entry
 * (`apps/api/src/drawing-process.ts`, beside `main.ts`) hands each kind its drawer, and the
 * compiler holds it to one drawer for every kind. `lib/` names no kind and imports no module.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by the modules (declaration merging)
export interface DrawingKinds {}

export type DrawingKind = keyof DrawingKinds;
/** What a kind of drawing is given: small, since it crosses over IPC as it is (a file goes by its path). */
export type DrawingInput<K extends DrawingKind> = DrawingKinds[K] extends { input: infer I } ? I : never;
/** What a kind of drawing answers. */
export type DrawingOutput<K extends DrawingKind> = DrawingKinds[K] extends { output: infer O } ? O : never;

/** The drawing process's work: a drawer for each kind. */
export type Drawers = { [K in DrawingKind]: (input: DrawingInput<K>) => Promise<DrawingOutput<K>> };

export interface TaskMessage {
  id: number;
  kind: DrawingKind;
  input: unknown;
}

export type ResultMessage = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string };
