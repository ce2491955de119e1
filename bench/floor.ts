/**
 * The floor of a list call: what a bare Fastify route on its own pg pool does when it runs
 * the same SQL for the same page, with no sign-in, access check, validation or mapping.
 * A call's ratio to its floor says how much of its time is the app's own (issue #19).
 *
 * "The same SQL" is taken, not rewritten: `captureStatements` runs the app's repository
 * method for the page in this process and records every statement it sends to PostgreSQL,
 * with its parameters, in order and with which ones ran at the same time. The floor server
 * (`bench/floor-server.ts`, a separate process like the app's) replays them per request.
 */
import pg from 'pg';

export interface CapturedStatement {
  text: string;
  values: unknown[];
}

/** Statements sent at the same time (the app awaits them together), groups one after another. */
export type StatementGroups = CapturedStatement[][];

export interface FloorRoute {
  /** The scenario it is the floor of (bench/run.ts's name). */
  name: string;
  groups: StatementGroups;
}

type QueryFn = (this: pg.Pool, ...args: unknown[]) => unknown;

/**
 * Runs `work` (a repository call on a database opened in this process) and answers the
 * statements it sent. A statement sent while an earlier one was still running joins its
 * group; the floor sends a group's statements together, as the app did.
 */
export async function captureStatements(work: () => Promise<unknown>): Promise<StatementGroups> {
  const groups: StatementGroups = [];
  let running = 0;
  const original = pg.Pool.prototype.query as unknown as QueryFn;
  const patched: QueryFn = function (this: pg.Pool, ...args: unknown[]) {
    const [first, second] = args;
    const statement: CapturedStatement =
      typeof first === 'string'
        ? { text: first, values: Array.isArray(second) ? second : [] }
        : {
            text: (first as { text: string }).text,
            // drizzle sends `query({ text, rowMode, types }, values)`; pg also takes `{ text, values }`.
            values: (first as { values?: unknown[] }).values ?? (Array.isArray(second) ? second : []),
          };
    if (running > 0 && groups.length) groups.at(-1)!.push(statement);
    else groups.push([statement]);
    running += 1;
    // pg answers with a promise, or with undefined when given a callback.
    const result = original.apply(this, args) as Promise<unknown> | undefined;
    const done = () => {
      running -= 1;
    };
    if (result instanceof Promise) result.then(done, done);
    else done();
    return result;
  };
  (pg.Pool.prototype as unknown as { query: QueryFn }).query = patched;
  try {
    await work();
  } finally {
    (pg.Pool.prototype as unknown as { query: QueryFn }).query = original;
  }
  if (!groups.length) throw new Error('the repository call sent no statement to capture');
  return groups;
}
