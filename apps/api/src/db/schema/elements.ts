import { sql } from 'drizzle-orm';
import { index, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { caseOrigins } from '@pss/contract';
import { cases } from './cases.js';

/** Answer tags: a catalogue shared by projects and module libraries (names unique regardless of case). */
export const answerTags = pgTable(
  'answer_tags',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('answer_tags_name_unique').on(sql`lower(${t.name})`)],
);

/**
 * Which answer choice of a case carries which tag. `origin` says who owns the row: the
 * project (CUSTOM) or the module library the case came from (MODULE_LIBRARY).
 */
export const caseAnswerTags = pgTable(
  'case_answer_tags',
  {
    caseId: uuid('case_id')
      .notNull()
      .references(() => cases.id, { onDelete: 'cascade' }),
    questionId: uuid('question_id').notNull(),
    choiceId: uuid('choice_id').notNull(),
    tagId: uuid('tag_id')
      .notNull()
      .references(() => answerTags.id, { onDelete: 'restrict' }),
    origin: text('origin', { enum: caseOrigins }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.caseId, t.choiceId, t.tagId] }), index('case_answer_tags_tag_idx').on(t.tagId)],
);

/** A case's key takeaways, in order (at most 20). */
export const keyTakeaways = pgTable(
  'key_takeaways',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    caseId: uuid('case_id')
      .notNull()
      .references(() => cases.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull(),
    text: text('text').notNull(),
    origin: text('origin', { enum: caseOrigins }).notNull(),
  },
  (t) => [uniqueIndex('key_takeaways_case_position_unique').on(t.caseId, t.position)],
);
