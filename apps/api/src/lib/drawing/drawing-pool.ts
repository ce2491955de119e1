import { fork, type ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { drawingProcessScript } from './drawing-process-script.js';
import type { DrawingInput, DrawingKind, DrawingOutput, ResultMessage, TaskMessage } from './drawing-tasks.js';

/**
 * A process that draws (`drawing-server.ts`: resource thumbnails, certificate PDFs), apart
 * from the API's: drawing is CPU work that holds whatever event loop runs it — pdf.js draws a
 * page synchronously, operator by operator, and one hostile PDF held the API's for over a
 * minute. Each drawing has a time limit and the process a heap limit
 * (`--max-old-space-size`); a drawing past either ends the process, the drawing rejects, and
 * the next drawing starts a new one. The API stays up.
 *
 * A process, not a worker thread: a thread's `resourceLimits` are best-effort — V8 may abort
 * the whole process rather than end the thread, depending on how the heap was filled (Node
 * documents it; on Node 24 a hostile PDF did so) — while a process past its heap limit ends
 * alone.
 */
export interface DrawingLimits {
  /** How long one drawing may take, from being handed to the process. */
  timeoutMs: number;
  /** The drawing process's JS heap (pdf.js's operator lists live there). */
  maxHeapMb: number;
}

/** What V8 writes when a heap limit is reached ("Reached heap limit", "JavaScript heap out of memory"). */
const OUT_OF_MEMORY = /heap limit|out of memory/i;

/** An idle drawing process is ended after this long, unless its pool says otherwise: pdf.js is heavy to hold. */
const IDLE_MS = 30_000;

export interface DrawingPoolOptions {
  /** Names the pool in its log lines and errors ("thumbnail", "certificate"). */
  name: string;
  limits: DrawingLimits;
  log?: FastifyBaseLogger;
  /** How long an idle process is kept (30 s by default). */
  idleMs?: number;
}

interface Pending {
  message: TaskMessage;
  resolve: (drawn: unknown) => void;
  reject: (error: Error) => void;
}

interface Running extends Pending {
  timer: NodeJS.Timeout;
  timedOut: boolean;
}

/**
 * One drawing process at a time per pool, one drawing at a time in it, the others queued.
 * Each caller has a pool of its own, so a queue of one kind never delays another.
 */
export function createDrawingPool({ name, limits, log, idleMs = IDLE_MS }: DrawingPoolOptions) {
  let child: ChildProcess | null = null;
  let current: Running | null = null;
  const queue: Pending[] = [];
  let idle: NodeJS.Timeout | null = null;
  let nextId = 1;
  let closed = false;
  const closedError = () => new Error(`The ${name} pool is closed.`);

  function start(): ChildProcess {
    const started = fork(drawingProcessScript(), [], {
      execArgv: [`--max-old-space-size=${limits.maxHeapMb}`],
      // Structured clone, so a thumbnail or a PDF crosses as bytes, not JSON.
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    // Below the API's priority (Linux), so a long drawing never slows a request.
    if (started.pid !== undefined) {
      try {
        setPriority(started.pid, 10);
      } catch {
        // Not permitted here: the drawing still has its time limit.
      }
    }
    // Whether V8 said the heap ran out. Its message is followed by a long native stack, so it
    // is looked for as the output comes (across a chunk's edge too), not in a tail kept after.
    let outOfMemory = false;
    let tail = '';
    started.stderr?.on('data', (chunk: Buffer) => {
      const text = tail + chunk.toString('utf8');
      if (OUT_OF_MEMORY.test(text)) outOfMemory = true;
      tail = text.slice(-64);
    });
    // A process that cannot start must not become an unhandled 'error' event.
    started.on('error', (error) => {
      log?.warn({ err: error }, `${name} process failed`);
      // One that never started sends neither 'close' nor an answer: its drawing fails now.
      if (started.pid === undefined) ended(started, null, null, false);
    });
    started.on('message', (message: ResultMessage) => settle(started, message));
    // A heap limit's message is written as the process dies and may still be in the pipe when
    // 'exit' comes: the ending is judged once stderr has ended, or a second later at most
    // ('close' alone may never come while anything still holds the pipe).
    started.on('exit', (code, signal) => {
      const judge = () => ended(started, code, signal, outOfMemory);
      const stderr = started.stderr;
      if (!stderr || stderr.readableEnded) return judge();
      const fallback = setTimeout(judge, 1000);
      stderr.once('end', () => {
        clearTimeout(fallback);
        judge();
      });
    });
    return started;
  }

  function settle(from: ChildProcess, message: ResultMessage): void {
    if (from !== child || !current || current.message.id !== message.id) return;
    const done = current;
    current = null;
    clearTimeout(done.timer);
    if (message.ok) done.resolve(message.value);
    else done.reject(new Error(message.message));
    next();
  }

  function ended(from: ChildProcess, code: number | null, signal: NodeJS.Signals | null, outOfMemory: boolean): void {
    if (from !== child) return;
    child = null;
    if (current) {
      const failed = current;
      current = null;
      clearTimeout(failed.timer);
      if (failed.timedOut) failed.reject(new Error('The drawing was aborted: it passed its time limit.'));
      else {
        log?.warn({ code, signal, outOfMemory }, `${name} process ended during a drawing`);
        failed.reject(
          new Error(
            outOfMemory
              ? 'The drawing ended: it passed its memory limit.'
              : `The drawing process ended (${signal ?? `exit code ${code}`}).`,
          ),
        );
      }
    }
    next();
  }

  function next(): void {
    if (current || closed) return;
    const pending = queue.shift();
    if (!pending) {
      if (child && !idle) idle = setTimeout(stopIdle, idleMs).unref();
      return;
    }
    if (idle) clearTimeout(idle);
    idle = null;
    // A process told to go when idle may not have gone yet: its channel is closed, so the
    // drawing goes to a new one (the old one's ending is then ignored).
    if (!child?.connected) child = start();
    const drawing = child;
    const running: Running = {
      ...pending,
      timedOut: false,
      timer: setTimeout(() => {
        running.timedOut = true;
        drawing.kill('SIGKILL');
      }, limits.timeoutMs),
    };
    current = running;
    drawing.send(pending.message);
  }

  function stopIdle(): void {
    idle = null;
    if (!current && queue.length === 0) child?.disconnect();
  }

  return {
    /** Draws `input` as `kind` in the drawing process; rejects when the drawing fails or passes a limit. */
    draw<K extends DrawingKind>(kind: K, input: DrawingInput<K>): Promise<DrawingOutput<K>> {
      if (closed) return Promise.reject(closedError());
      return new Promise<DrawingOutput<K>>((resolve, reject) => {
        // The process answers a task with its kind's drawer's result.
        const message = { id: nextId++, kind, input };
        queue.push({ message, resolve: (drawn) => resolve(drawn as DrawingOutput<K>), reject });
        next();
      });
    },

    /**
     * Readies the process ahead of a drawing someone will wait for: when none runs and none
     * is asked for, it is started and draws `input` (whose result is dropped), so its code and
     * what the drawing loads (fonts) are ready for the next. Otherwise nothing: a process that
     * runs or draws is ready already. Answers whether it started one.
     */
    warm<K extends DrawingKind>(kind: K, input: DrawingInput<K>): boolean {
      if (closed || current || queue.length || child?.connected) return false;
      queue.push({ message: { id: nextId++, kind, input }, resolve: () => {}, reject: () => {} });
      next();
      return true;
    },

    /** Whether a drawing process is up (started, and not ended or told to end). */
    running(): boolean {
      return Boolean(child?.connected);
    },

    /** Ends the drawing process for good (the app's close); a drawing under way rejects. */
    async close(): Promise<void> {
      closed = true;
      if (idle) clearTimeout(idle);
      for (const pending of queue.splice(0)) pending.reject(closedError());
      const ending = child;
      if (!ending) return;
      const exited =
        ending.exitCode === null && ending.signalCode === null
          ? new Promise<void>((resolve) => ending.once('exit', () => resolve()))
          : Promise.resolve();
      if (current) {
        clearTimeout(current.timer);
        current.reject(closedError());
        current = null;
      }
      child = null;
      ending.kill('SIGKILL');
      await exited;
    },
  };
}

export type DrawingPool = ReturnType<typeof createDrawingPool>;
