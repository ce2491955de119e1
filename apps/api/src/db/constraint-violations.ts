/**
 * Telling a constraint PostgreSQL enforced from any other database error: the one place that
 * knows the SQLSTATEs and where drizzle puts them. Drizzle wraps a driver error in its own
 * (`cause`); node-postgres and PGlite both carry `code` and `constraint`.
 */
interface DriverError {
  code?: unknown;
  constraint?: unknown;
  cause?: { code?: unknown; constraint?: unknown };
}

const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';

function sqlState(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as DriverError;
  const code = e.code ?? e.cause?.code;
  return typeof code === 'string' ? code : undefined;
}

function constraintName(error: unknown): string {
  const e = error as DriverError;
  const name = e.constraint ?? e.cause?.constraint;
  return typeof name === 'string' ? name : '';
}

/**
 * A unique index refused the row. With `constraint`, only that index (or, ending in `*`, any
 * index whose name starts with what comes before it).
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (sqlState(error) !== UNIQUE_VIOLATION) return false;
  if (constraint === undefined) return true;
  const name = constraintName(error);
  return constraint.endsWith('*') ? name.startsWith(constraint.slice(0, -1)) : name === constraint;
}

/** A foreign key refused the row: what it points at is gone, or something still points at it. */
export function isForeignKeyViolation(error: unknown): boolean {
  return sqlState(error) === FOREIGN_KEY_VIOLATION;
}

/** Errors raised by PostgreSQL or PGlite carry a five-character SQLSTATE `code` (Fastify's own start `FST_`). */
export function isDatabaseError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  const sqlState = /^[0-9A-Z]{5}$/;
  return (
    (typeof code === 'string' && sqlState.test(code) && !code.startsWith('FST_')) ||
    (typeof cause?.code === 'string' && sqlState.test(cause.code))
  );
}
