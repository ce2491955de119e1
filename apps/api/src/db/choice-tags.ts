import { asc, eq } from 'drizzle-orm';
import type { Db } from './client.js';
import { answerTags, caseAnswerTags } from './schema/index.js';

/**
 * The answer tags of a case's choices, by choice id, in name order. Shown to whoever reads
 * the case's feedback (the participant, or an author's preview) beside the choices.
 */
export async function choiceTagsOf(db: Pick<Db, 'select'>, caseId: string): Promise<Map<string, string[]>> {
  const rows = await db
    .select({ choiceId: caseAnswerTags.choiceId, name: answerTags.name })
    .from(caseAnswerTags)
    .innerJoin(answerTags, eq(answerTags.id, caseAnswerTags.tagId))
    .where(eq(caseAnswerTags.caseId, caseId))
    .orderBy(asc(answerTags.name));
  const tags = new Map<string, string[]>();
  for (const row of rows) tags.set(row.choiceId, [...(tags.get(row.choiceId) ?? []), row.name]);
  return tags;
}
