import { sql } from 'drizzle-orm';
import { MissingReferenceError, rowTriggersOff, rowTriggersOn } from '../../db/bulk-writes.js';
import { copyLines, copyText } from '../../db/copy-rows.js';
import { rowsOf, type Db } from '../../db/client.js';
import { markParticipantSearchStale } from '../../db/participant-search.js';
import { recountParticipants } from '../../db/participant-counts.js';
import { PARTICIPANT_OPTIONAL_COLUMNS, type ErrorCode } from '@pss/contract';
import type { CheckedRow, RowProblem } from './participant-rows.js';
import type { PoolClient } from 'pg';

/*
 * The SQL of a participant import. The checked rows are appended, batch by batch as the
 * file is read, to a temporary table (`import_file`, one per connection); then the checks
 * against existing users and the writes are set-based statements over the whole of it.
 * All of these run on one connection: the import's transaction, or the embedded
 * database's only connection.
 */

type Executor = Pick<Db, 'execute'>;

/** What an import writes into: a project (PARTICIPANTS) or only the client's users (NEW_USERS). */
export interface ImportScope {
  clientId: string;
  /** Null for a NEW_USERS import. */
  projectId: string | null;
  /** The project's seasons the file may name (checked to still exist before writing). */
  seasonIds: string[];
}

/**
 * Each field of a checked row but its details: its column in the import table and its type.
 * The details follow, each a text column under its own name (PARTICIPANT_OPTIONAL_COLUMNS),
 * which is also its column in the users table.
 */
const importColumns: Record<Exclude<keyof CheckedRow, 'details'>, [column: string, type: string]> = {
  line: ['line', 'int'],
  newUserId: ['new_user_id', 'uuid'],
  email: ['email', 'text'],
  employeeId: ['employee_id', 'text'],
  role: ['role', 'text'],
  profession: ['profession', 'text'],
  salutation: ['salutation', 'text'],
  firstName: ['first_name', 'text'],
  lastName: ['last_name', 'text'],
  seasonId: ['season_id', 'uuid'],
  firstRound: ['first_round', 'smallint'],
  lastRound: ['last_round', 'smallint'],
  startDate: ['start_date', 'date'],
};
const columns = Object.entries(importColumns) as [Exclude<keyof CheckedRow, 'details'>, [string, string]][];
const DETAILS = PARTICIPANT_OPTIONAL_COLUMNS;
/** The import table's columns, in the order of a COPY line. */
const tableColumns = [...columns.map(([, [column]]) => column), ...DETAILS];

/** `prefix.detail, …` for each detail: the details' columns in a statement. */
const detailList = (prefix: string) => DETAILS.map((name) => `${prefix}${name}`).join(', ');

/**
 * Creates this connection's (empty) import table; inside a transaction it goes with it.
 * Besides the checked fields it holds each row's user id once the user is known.
 */
export async function createImportTable(x: Executor): Promise<void> {
  const definition = [
    ...columns.map(([, [column, type]]) => `${column} ${type}`),
    ...DETAILS.map((name) => `${name} text`),
    'user_id uuid',
  ].join(', ');
  await x.execute(sql.raw(`drop table if exists import_file`));
  await x.execute(sql.raw(`create temporary table import_file (${definition})`));
}

export async function dropImportTable(x: Executor): Promise<void> {
  await x.execute(sql.raw(`drop table if exists import_file`));
}

/** Empties the import table for the next batch (when batches are written one at a time). */
export async function emptyImportTable(x: Executor): Promise<void> {
  await x.execute(sql.raw(`truncate import_file`));
}

/**
 * Appends a batch of checked rows: sent as one JSON document read back by
 * `json_to_recordset` (one parameter whatever the batch size, and cheap to encode). Each
 * row's existing user, if its email has one, is looked up on the way in, while the parser
 * reads the next batch: by index, whatever the planner believes of the users table (run
 * it after `lookUpByIndex`).
 */
export async function appendRows(x: Executor, rows: CheckedRow[]): Promise<void> {
  const names = sql.raw(tableColumns.join(', '));
  const fields = sql.raw(
    [...columns.map(([key]) => `r."${key}"`), ...DETAILS.map((_, i) => `r."details"[${i + 1}]`)].join(', '),
  );
  const shape = sql.raw([...columns.map(([key, [, type]]) => `"${key}" ${type}`), '"details" text[]'].join(', '));
  await x.execute(sql`
    insert into import_file (${names}, user_id)
    select ${fields}, (select u.id from users u where u.email = r."email")
    from json_to_recordset(${JSON.stringify(rows)}::json) as r(${shape})`);
}

/** A checked row as a line of COPY text for the import table (`copyImportText`). */
export function copyLineOf(row: CheckedRow): string {
  let line = copyText(row[columns[0]![0]]);
  for (let i = 1; i < columns.length; i += 1) line += '\t' + copyText(row[columns[i]![0]]);
  for (const detail of row.details) line += '\t' + copyText(detail);
  return line + '\n';
}

/**
 * `appendRows` by COPY, on a node-postgres connection (db/copy-rows.ts): the batch goes as
 * COPY's text lines (`copyLineOf`), which PostgreSQL loads at several times the rate of the
 * same rows taken apart from JSON. Users are not looked up on the way in (COPY computes
 * nothing): `findExistingUsers` does it.
 */
export async function copyImportText(client: PoolClient, text: Buffer): Promise<void> {
  await copyLines(client, 'import_file', tableColumns, text);
}

/** Each copied row's existing user, by its email (what `appendRows` does row by row). Run after `lookUpByIndex`. */
export async function findExistingUsers(x: Executor): Promise<void> {
  await x.execute(sql`update import_file r set user_id = u.id from users u where u.email = r.email`);
}

/**
 * Rows (users found) that would change a participant the import may not change, or take
 * an email that belongs to someone else, in line order (the first `limit`). One statement
 * for the rows in the import table; the LATERAL … LIMIT 1
 * keeps each lookup a lookup by index.
 */
export async function importConflicts(x: Executor, clientId: string, limit: number): Promise<RowProblem[]> {
  const result = await x.execute(sql`
    select r.line,
      case
        when u.client_id is distinct from ${clientId} or u.role in ('ADMIN', 'SUPERADMIN') then 'EMAIL_ALREADY_EXISTS'
        when u.employee_id is distinct from r.employee_id then 'EMPLOYEE_ID_CHANGE_NOT_ALLOWED'
        when u.first_name <> r.first_name or u.last_name <> r.last_name then 'NAME_CHANGE_NOT_ALLOWED'
        else 'PROFESSION_CHANGE_NOT_ALLOWED'
      end as code,
      u.employee_id as existing_employee_id, u.first_name, u.last_name
    from import_file r
    cross join lateral (select * from users u where u.id = r.user_id limit 1) u
    where u.client_id is distinct from ${clientId} or u.role in ('ADMIN', 'SUPERADMIN')
      or u.employee_id is distinct from r.employee_id
      or u.first_name <> r.first_name or u.last_name <> r.last_name
      or u.profession is distinct from r.profession
    union all
    select r.line, 'EMAIL_CHANGE_NOT_ALLOWED', u.employee_id, u.first_name, u.last_name
    from import_file r
    cross join lateral (
      select * from users u where u.client_id = ${clientId} and u.employee_id = r.employee_id limit 1) u
    where u.email <> r.email
    order by 1 limit ${limit}`);
  return rowsOf<{
    line: number;
    code: string;
    existing_employee_id: string | null;
    first_name: string;
    last_name: string;
  }>(result).map((r) => ({
    line: Number(r.line),
    errorCode: r.code as ErrorCode,
    message: conflictMessage(Number(r.line), r.code, r),
  }));
}

/**
 * For statements that look the import's rows up in large tables: the import table (with no
 * index) is the only table read whole; everything else through its indexes. Lasts until
 * the end of the transaction.
 */
export async function lookUpByIndex(tx: Executor): Promise<void> {
  await tx.execute(sql`set local enable_seqscan = off`);
  // Joins by nested loop too: the users of a batch's rows, found by their emails, are a few
  // thousand index lookups. A hash join read the whole users table through its email index
  // for each batch, a cost that grows with the table (docs/benchmarks.md, "Figures behind the
  // code").
  await tx.execute(sql`set local enable_hashjoin = off`);
  await tx.execute(sql`set local enable_mergejoin = off`);
  // The setting works by pricing whole-table reads out of reach, which would otherwise make
  // PostgreSQL compile every statement (JIT, about half a second each) as if it were huge.
  await tx.execute(sql`set local jit = off`);
}

/**
 * Opens the writing of an import, in its transaction. Foreign keys are checked once for the
 * import where the connection allows it (db/bulk-writes.ts): the client, project and seasons
 * the rows will refer to are locked and checked here. Answers whether row triggers are off.
 */
export async function beginWrites(tx: Executor, scope: ImportScope): Promise<boolean> {
  // The import's sorts (one user per email, one participation per user) stay in memory.
  await tx.execute(sql`set local work_mem = '64MB'`);
  // The planner's idea of the users table lags behind the rows this transaction adds
  // (statistics see only committed rows); left free, after a large import into a young
  // database it would scan the whole, grown, table for lookups of a few thousand rows.
  await lookUpByIndex(tx);
  const triggersOff = await rowTriggersOff(tx);
  if (!triggersOff) return false;
  const [held] = rowsOf<{ clients: number; projects: number; seasons: string[] | null }>(
    await tx.execute(sql`
      select
        (select count(*) from (select 1 from clients where id = ${scope.clientId} for key share) c)::int as clients,
        (select count(*) from (select 1 from projects where id = ${scope.projectId} for key share) p)::int as projects,
        (select array_agg(id) from (select id from seasons where project_id = ${scope.projectId} for key share) s)
          as seasons`),
  );
  if (held?.clients !== 1) throw new MissingReferenceError('The client');
  if (scope.projectId && held.projects !== 1) throw new MissingReferenceError('The project');
  const seasons = new Set(held.seasons ?? []);
  if (scope.seasonIds.some((id) => !seasons.has(id))) throw new MissingReferenceError('A season of the project');
  return true;
}

/** A row's user: the one found by its email, else the new one it created. */
const userOf = sql.raw('coalesce(r.user_id, r.new_user_id)');

/**
 * Writes the import (users found): new users with the ids the rows carry, the details of
 * existing ones, then (for a project) assignments and participation. Each insert goes in user id order: new ids are
 * time-ordered, so the indexes that begin with the user id are appended to, not
 * scattered. A new email taken meanwhile by someone else is a unique violation: the import
 * fails whole and can be run again.
 */
export async function writeImport(tx: Executor, scope: ImportScope, triggersOff: boolean): Promise<void> {
  await tx.execute(sql`
    insert into users (id, email, role, first_name, last_name, client_id, employee_id, salutation, profession,
      ${sql.raw(detailList(''))})
    select distinct on (r.new_user_id) r.new_user_id, r.email, r.role, r.first_name, r.last_name, ${scope.clientId},
      r.employee_id, r.salutation, r.profession, ${sql.raw(detailList('r.'))}
    from import_file r
    where r.user_id is null
    order by r.new_user_id, r.line`);
  // Existing participants take the file's other details (name, email, profession and user
  // ID were checked unchanged), so an exported file, edited and imported again, changes
  // what was edited; a row that changes nothing writes nothing.
  await tx.execute(sql`
    update users u set salutation = r.salutation, role = r.role,
      ${sql.raw(DETAILS.map((name) => `${name} = r.${name}`).join(', '))}, updated_at = now()
    from (select distinct on (f.user_id) f.* from import_file f where f.user_id is not null
      order by f.user_id, f.line) r
    where u.id = r.user_id
      and (u.salutation, u.role, ${sql.raw(detailList('u.'))})
      is distinct from (r.salutation, r.role, ${sql.raw(detailList('r.'))})`);
  if (!scope.projectId) return;
  // With row triggers off, the KEY SHARE locks they would take on the users that existed
  // before this import (its own new users need none), all at once.
  if (triggersOff) {
    await tx.execute(sql`
      select count(*) from (select 1 from users u
        where u.id = any(array(select r.user_id from import_file r where r.user_id is not null))
        for key share) held`);
  }
  // A new user has no assignment and no participation yet: their rows are plain inserts.
  // Only existing users' rows pay for ON CONFLICT (an index probe and a speculative insert
  // each); in an import of new participants that is most of the file.
  for (const existing of [false, true]) {
    await tx.execute(sql`
      insert into participant_assignments (user_id, season_id, project_id, first_round, last_round, start_date)
      select ${userOf}, r.season_id, ${scope.projectId}::uuid, r.first_round, r.last_round, r.start_date
      from import_file r
      where r.season_id is not null and (r.user_id is not null) = ${existing}
      order by 1
      ${existing ? assignmentConflict : sql``}`);
  }
  // Data status is decided as each participation is written (READY once assigned), so no
  // second pass over the project's rows is needed.
  // Names come from the rows: an import may not change an existing participant's name.
  for (const existing of [false, true]) {
    await tx.execute(sql`
      insert into project_participants (project_id, user_id, sort_name, email, data_status)
      select ${scope.projectId}::uuid, ${userOf}, lower(min(r.last_name) || ' ' || min(r.first_name)), min(r.email),
        case when bool_or(r.season_id is not null) then 'READY' else 'NOT_READY' end
      from import_file r
      where (r.user_id is not null) = ${existing}
      group by 2
      order by 2
      ${existing ? participationConflict : sql``}`);
  }
}

/** An existing user's assignment to the season takes the file's rounds and start. */
const assignmentConflict = sql`
  on conflict (user_id, season_id) do update set first_round = excluded.first_round,
    last_round = excluded.last_round, start_date = excluded.start_date, updated_at = now()
    where (participant_assignments.first_round, participant_assignments.last_round,
      participant_assignments.start_date)
      is distinct from (excluded.first_round, excluded.last_round, excluded.start_date)`;

/** An existing participation becomes READY when the file assigns its user. */
const participationConflict = sql`
  on conflict (project_id, user_id) do update set data_status = 'READY'
    where project_participants.data_status = 'NOT_READY' and excluded.data_status = 'READY'`;

/** Closes the writing: triggers back on, the project's kept counts, its search marked stale. */
export async function finishWrites(tx: Executor, scope: ImportScope, triggersOff: boolean): Promise<void> {
  if (triggersOff) await rowTriggersOn(tx);
  if (!scope.projectId) return;
  await markParticipantSearchStale(tx, scope.projectId);
  await recountParticipants(tx, scope.projectId);
}

function conflictMessage(
  line: number,
  code: string,
  existing: { existing_employee_id: string | null; first_name: string; last_name: string },
): string {
  switch (code) {
    case 'EMAIL_ALREADY_EXISTS':
      return `Line ${line}: this email belongs to another account and cannot be imported here.`;
    case 'EMPLOYEE_ID_CHANGE_NOT_ALLOWED':
      return `Line ${line}: this email already belongs to user ID ${existing.existing_employee_id ?? '(none)'}; an import cannot change a user ID.`;
    case 'NAME_CHANGE_NOT_ALLOWED':
      return `Line ${line}: this participant is ${existing.first_name} ${existing.last_name}; an import cannot change a name.`;
    case 'EMAIL_CHANGE_NOT_ALLOWED':
      return `Line ${line}: user ID ${existing.existing_employee_id} already has another email; an import cannot change an email.`;
    default:
      return `Line ${line}: an import cannot change a participant's profession.`;
  }
}
