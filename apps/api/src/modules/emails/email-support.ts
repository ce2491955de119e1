import { sql } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../db/client.js';

/** Who an email tells participants to write to or call: `{email}` and `{phone}`. */
export interface SupportContact {
  email: string;
  phone: string;
}

/** A project's own setting, already fallen back to its client's (null: neither set one). */
export interface SupportSetting {
  email: string | null;
  phone: string | null;
}

/**
 * The support contact an email of a project names: the project's own, else its client's
 * (each field on its own, so a project may override just the phone), else the server's
 * SUPPORT_EMAIL / SUPPORT_PHONE. The phone may end up empty; the address never does.
 */
export function effectiveSupport(setting: SupportSetting | null, server: SupportContact): SupportContact {
  return { email: setting?.email ?? server.email, phone: setting?.phone ?? server.phone };
}

/**
 * The project's and its client's settings folded into one (SQL the outbox's work query and
 * the preview share): `p` is the projects row, `pcl` its client.
 */
export const supportColumns = sql`coalesce(p.support_email, pcl.support_email) as support_email,
  coalesce(p.support_phone, pcl.support_phone) as support_phone`;

/** One project's setting (its own, else its client's), for the preview and the dry run. */
export async function projectSupport(db: Executor, projectId: string): Promise<SupportSetting | null> {
  const [row] = rowsOf<{ support_email: string | null; support_phone: string | null }>(
    await db.execute(sql`
      select ${supportColumns} from projects p join clients pcl on pcl.id = p.client_id
      where p.id = ${projectId}::uuid`),
  );
  return row ? { email: row.support_email, phone: row.support_phone } : null;
}
