import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';

/**
 * Deep pages of a project's participant list at the speed of the first.
 *
 * A page read by OFFSET walks every index entry before it: page 2,000 of 100,000
 * participants walks 50,000. Instead, for each list (project, archive state, data status,
 * sort) this remembers where every thousandth row falls — its sort value and user id, a
 * "mark" — and starts a deep page from the nearest mark before it, walking fewer than a
 * thousand entries. Marks are read in one pass over the index, once, and belong to the
 * project's participants version (a trigger moves it with every change to them), so a
 * change makes the next deep page read fresh marks; a page is also re-read by OFFSET if
 * the version moved while it was being read. Page numbers keep meaning what they say.
 */

export const MARK_EVERY = 1000;
/** Lists remembered at once (each is a few hundred small entries for 100,000 rows). */
const MAX_LISTS = 200;

/** The sorts that can start from a mark: one column, then the user id the same way. */
export interface MarkableSort {
  /** The column as SQL text (`project_participants.sort_name`…), and its type for casting back. */
  column: string;
  type: 'text' | 'timestamptz';
  direction: 'ASC' | 'DESC';
}

interface Marks {
  version: number;
  /** marks[k - 1] is the row at offset k × MARK_EVERY. */
  rows: { value: string; userId: string }[];
}

/** Where a page starts: a condition from a mark and the offset left after it. */
export interface PageStart {
  after: SQL | undefined;
  offset: number;
  /** The participants version the mark belongs to (null: plain OFFSET). */
  version: number | null;
}

export function createPageMarks(db: Db) {
  const lists = new Map<string, Promise<Marks>>();

  /** One pass over the list in order, keeping every MARK_EVERY-th row, with the version read alongside. */
  async function readMarks(projectId: string, where: SQL, sort: MarkableSort): Promise<Marks> {
    const order = sql.raw(`${sort.column} ${sort.direction}, project_participants.user_id ${sort.direction}`);
    const result = (await db.execute(sql`
      select (select participants_version from projects where id = ${projectId}) as version,
        coalesce(json_agg(json_build_array(m.value, m.user_id) order by m.n), '[]') as rows
      from (
        select ${sql.raw(sort.column)}::text as value, project_participants.user_id,
          row_number() over (order by ${order}) - 1 as n
        from project_participants where ${where}
      ) m
      where m.n > 0 and m.n % ${MARK_EVERY} = 0`)) as unknown as {
      rows: { version: string | number; rows: [string, string][] | string }[];
    };
    const row = result.rows[0]!;
    const pairs = typeof row.rows === 'string' ? (JSON.parse(row.rows) as [string, string][]) : row.rows;
    return { version: Number(row.version), rows: pairs.map(([value, userId]) => ({ value, userId })) };
  }

  return {
    /**
     * Where the page at `offset` starts. `key` names the list (all that decides its rows
     * and order); `where` selects its rows. Pages before the first mark start by OFFSET.
     */
    async start(input: {
      key: string;
      projectId: string;
      where: SQL;
      sort: MarkableSort;
      offset: number;
      version: number;
    }): Promise<PageStart> {
      const plain: PageStart = { after: undefined, offset: input.offset, version: null };
      if (input.offset < MARK_EVERY) return plain;
      let pending = lists.get(input.key);
      let marks = pending ? await pending.catch(() => null) : null;
      if (!marks || marks.version !== input.version) {
        pending = readMarks(input.projectId, input.where, input.sort);
        lists.delete(input.key);
        lists.set(input.key, pending);
        if (lists.size > MAX_LISTS) lists.delete(lists.keys().next().value!);
        marks = await pending;
      }
      const k = Math.min(Math.floor(input.offset / MARK_EVERY), marks.rows.length);
      if (k === 0 || marks.version !== input.version) return plain;
      const mark = marks.rows[k - 1]!;
      const comparison = sql.raw(input.sort.direction === 'ASC' ? '>=' : '<=');
      return {
        after: sql`(${sql.raw(input.sort.column)}, project_participants.user_id) ${comparison} (${mark.value}::${sql.raw(input.sort.type)}, ${mark.userId}::uuid)`,
        offset: input.offset - k * MARK_EVERY,
        version: marks.version,
      };
    },
  };
}
export type PageMarks = ReturnType<typeof createPageMarks>;
