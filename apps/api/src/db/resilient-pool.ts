import pg from 'pg';
import { isConnectionLost, isReadOnlyStatement } from './connection-loss.js';

/**
 * The PostgreSQL connection pool, made to survive a connection that PostgreSQL ends.
 *
 * node-postgres reports a connection's end as an `error` event on its client. The pool
 * listens on idle clients only; a client checked out between two statements (a transaction,
 * a COPY, an import reading its next batch) had no listener, and an unheard `error` event
 * ends the process. So every client gets a listener of its own the moment the pool makes it.
 * The statement in flight still fails, and the client, no longer queryable, leaves the pool
 * when it is released; the next statement gets a new connection.
 *
 * A lone read through the pool (no transaction) that failed because its connection was lost
 * is run once more on a new connection: reading again cannot do anything twice. Writes are
 * not: whether a write whose connection ended was committed is unknown, so the caller gets
 * the error (the API answers it with a retryable 503).
 */
export function createResilientPool(options: {
  connectionString: string;
  max: number;
  /** Told of every connection that ended with an error (logged and counted by the app). */
  onConnectionLost: (error: Error) => void;
}): pg.Pool {
  const pool = new pg.Pool({ connectionString: options.connectionString, max: options.max });
  // Idle clients: the pool removes the dead one; checked-out clients: removed on release.
  pool.on('error', options.onConnectionLost);
  pool.on('connect', (client) => client.on('error', options.onConnectionLost));

  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  const retryingQuery = (...args: unknown[]): unknown => {
    // The callback form (nothing here uses it) is passed on as it is.
    if (typeof args[args.length - 1] === 'function') return query(...args);
    const first = args[0];
    const text = typeof first === 'string' ? first : (first as { text?: unknown } | undefined)?.text;
    const once = query(...args) as Promise<unknown>;
    if (typeof text !== 'string' || !isReadOnlyStatement(text)) return once;
    return once.catch((error: unknown) => {
      if (!isConnectionLost(error)) throw error;
      return query(...args);
    });
  };
  pool.query = retryingQuery as typeof pool.query;
  return pool;
}
