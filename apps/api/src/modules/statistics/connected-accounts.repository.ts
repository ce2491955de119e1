import { sql } from 'drizzle-orm';
import type { ListQuery } from '@pss/contract';
import { rowsOf, type Db } from '../../db/client.js';
import { escapeLike } from '../../lib/list-query.js';

/** The client's participants who have signed in, with their sign-ins (sessions begun). */
export function createConnectedAccountsRepository(db: Db) {
  return {
    async connectedAccounts(clientId: string, query: ListQuery<'last_sign_in' | 'name', Record<string, never>>) {
      const order = query.sort
        .map((t) =>
          t.field === 'name'
            ? sql`lower(u.last_name) ${sql.raw(t.direction)}, lower(u.first_name) ${sql.raw(t.direction)}`
            : sql`s.last_sign_in ${sql.raw(t.direction)}`,
        )
        .concat(sql`u.id`);
      const search = query.search ? `%${escapeLike(query.search)}%` : null;
      const rows = rowsOf<{
        user_id: string;
        first_name: string;
        last_name: string;
        email: string;
        role: string;
        sign_ins: number;
        first_sign_in: string;
        last_sign_in: string;
        total: number;
      }>(
        await db.execute(sql`
          with s as (
            select se.user_id, count(distinct se.family_id)::int as sign_ins,
              min(se.created_at) as first_sign_in, max(se.created_at) as last_sign_in
            from sessions se join users su on su.id = se.user_id
            where su.client_id = ${clientId}::uuid and su.role in ('USER', 'HALFUSER', 'TESTUSER')
            group by se.user_id
          )
          select u.id as user_id, u.first_name, u.last_name, u.email, u.role, s.sign_ins,
            to_char(s.first_sign_in at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as first_sign_in,
            to_char(s.last_sign_in at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as last_sign_in,
            count(*) over ()::int as total
          from s join users u on u.id = s.user_id
          ${search ? sql`where (u.first_name || ' ' || u.last_name || ' ' || u.email) ilike ${search}` : sql``}
          order by ${sql.join(order, sql`, `)}
          limit ${query.limit} offset ${(query.page - 1) * query.limit}`),
      );
      return { rows, total: rows[0]?.total ?? 0 };
    },
  };
}
