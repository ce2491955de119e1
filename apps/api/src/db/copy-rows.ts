import { once } from 'node:events';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/**
 * `COPY … FROM STDIN` on node-postgres, for loading many rows: PostgreSQL reads them as
 * plain text, with none of the per-statement work an INSERT of the same rows costs (no
 * JSON to take apart, no parameters, no plan).
 *
 * COPY needs the connection itself, which node-postgres exposes and the embedded database
 * does not in the same way (its `COPY … FROM '/dev/blob'` takes a whole file at once, not
 * a stream): `connectionOf` answers null there and callers keep their INSERT path.
 */

/** A value as COPY's text format spells it (null as `\N`; backslash, tab and line ends escaped). */
export function copyText(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '\\N';
  const text = String(value);
  return /[\\\t\n\r]/.test(text)
    ? text.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r')
    : text;
}

/**
 * The node-postgres connection under a Drizzle transaction, or null (the embedded
 * database). Drizzle keeps it as its session's `client`; checked by shape, since Drizzle
 * does not publish it.
 */
export function connectionOf(tx: unknown): PoolClient | null {
  const client = (tx as { session?: { client?: unknown } }).session?.client as
    (PoolClient & { release?: unknown }) | undefined;
  return client && typeof client.query === 'function' && typeof client.release === 'function' ? client : null;
}

/** Copies text-format lines (`copyText` fields joined by tabs, each line ending in `\n`) into `table (columns)`. */
export async function copyLines(
  client: PoolClient,
  table: string,
  columns: string[],
  lines: string | Buffer,
): Promise<void> {
  const stream = client.query(copyFrom(`copy ${table} (${columns.join(', ')}) from stdin`));
  const done = once(stream, 'finish');
  stream.end(lines);
  await done;
}
