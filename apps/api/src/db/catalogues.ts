import { inArray, sql } from 'drizzle-orm';
import type { Executor } from './client.js';
import { diseaseTypes, questionCategories } from './schema/index.js';

export type CatalogueKind = 'disease_types' | 'question_categories';

/**
 * The ids of catalogue entries by name, each found regardless of case or created: projects
 * and module libraries are made in one step with names typed in. One place for both.
 */
export async function ensureCatalogueEntries(tx: Executor, kind: CatalogueKind, names: string[]): Promise<string[]> {
  const table = kind === 'disease_types' ? diseaseTypes : questionCategories;
  for (const name of names) {
    await tx.execute(sql`insert into ${table} (name) values (${name}) on conflict (lower(name)) do nothing`);
  }
  if (!names.length) return [];
  const found = await tx
    .select({ id: table.id })
    .from(table)
    .where(
      inArray(
        sql`lower(${table.name})`,
        names.map((n) => n.toLowerCase()),
      ),
    );
  return found.map((f) => f.id);
}
