/**
 * Telling a lost database connection from every other database error. A connection is lost
 * when PostgreSQL ends it (a failover, a restart, `pg_terminate_backend`, an idle-in-transaction
 * timeout), when the network drops it, or when no connection can be made at all. What was
 * asked on it may or may not have happened; asking again on a new connection may work. Every
 * other database error is an answer about the statement itself, and asking again answers the
 * same. The error handler answers a lost connection with a retryable 503
 * (`DATABASE_UNAVAILABLE`), the pool reads once more on a new connection (`resilient-pool.ts`),
 * and an import cut this way is given back to the lease rules (`imports.service.ts`).
 */

/**
 * SQLSTATEs of a connection that ended or could not be made: class 08 (connection exception),
 * 57P01 admin_shutdown (`pg_terminate_backend`, a fast shutdown), 57P02 crash_shutdown,
 * 57P03 cannot_connect_now (starting up or in recovery), 25P03
 * idle_in_transaction_session_timeout, 53300 too_many_connections.
 */
const LOST_SQLSTATES = /^(08...|57P0[123]|25P03|53300)$/;

/** Socket errors node-postgres passes on when the server cannot be reached or drops the socket. */
const LOST_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND']);

/**
 * node-postgres's own messages for a connection that is gone, which carry no code: the end of
 * the socket, a client used after its connection failed, a pool that could not connect in time.
 */
const LOST_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'timeout exceeded when trying to connect',
  'Client was closed and is not queryable',
];

function lostItself(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (LOST_SQLSTATES.test(code) || LOST_SOCKET_CODES.has(code))) return true;
  return typeof message === 'string' && LOST_MESSAGES.some((m) => message.startsWith(m));
}

/**
 * True when this error, or one it was caused by (Drizzle wraps the driver's error as its
 * `cause`; an `AggregateError` of a failed connect lists one per address), is a lost connection.
 */
export function isConnectionLost(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth += 1) {
    if (lostItself(current)) return true;
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.some(lostItself)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * True for a statement that only reads, so that running it again cannot do anything twice:
 * a plain `select` that locks nothing and calls none of the functions that change state.
 */
export function isReadOnlyStatement(text: string): boolean {
  return (
    /^\s*select\b/i.test(text) &&
    !/\bfor\s+(update|no\s+key\s+update|share|key\s+share)\b|nextval|setval|pg_advisory/i.test(text)
  );
}
