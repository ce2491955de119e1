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

type QueryFn = (this: pg.Client, ...args: unknown[]) => unknown;

/**
 * Runs `work` (a repository call on a database opened in this process) and answers the
 * statements it sent. A statement sent while an earlier one was still running joins its
 * group; the floor sends a group's statements together, as the app did.
 */
export async function captureStatements(work: () => Promise<unknown>): Promise<StatementGroups> {
  const groups: StatementGroups = [];
  let running = 0;
  // The client's query, not the pool's: the app's pool answers `query` with its own function,
  // bound when the pool was made (a lone read retried on a new connection, resilient-pool.ts),
  // and every statement, pooled or in a transaction, goes through a client's.
  const original = pg.Client.prototype.query as unknown as QueryFn;
  const patched: QueryFn = function (this: pg.Client, ...args: unknown[]) {
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
    const done = () => {
      running -= 1;
    };
    // The pool hands a client's query a callback (it answers with undefined then); a caller
    // holding a client awaits its promise.
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (...answer: unknown[]) => {
        done();
        return (callback as (...a: unknown[]) => unknown)(...answer);
      };
    }
    const result = original.apply(this, args) as Promise<unknown> | undefined;
    if (result instanceof Promise) result.then(done, done);
    return result;
  };
  (pg.Client.prototype as unknown as { query: QueryFn }).query = patched;
  try {
    await work();
  } finally {
    (pg.Client.prototype as unknown as { query: QueryFn }).query = original;
  }
  if (!groups.length) throw new Error('the repository call sent no statement to capture');
  return groups;
}
