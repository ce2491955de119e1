import { sql } from 'drizzle-orm';
import { index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { diseaseTypes, questionCategories } from './projects.js';

/** A module library: the provider's collection of reusable cases (origin MODULE_LIBRARY). */
export const modules = pgTable(
  'modules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('modules_name_unique').on(sql`lower(${t.name})`),
    index('modules_created_idx').on(t.createdAt, t.id),
    index('modules_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
  ],
);

export const moduleDiseaseTypes = pgTable(
  'module_disease_types',
  {
    moduleId: uuid('module_id')
      .notNull()
      .references(() => modules.id, { onDelete: 'cascade' }),
    diseaseTypeId: uuid('disease_type_id')
      .notNull()
      .references(() => diseaseTypes.id, { onDelete: 'restrict' }),
  },
  (t) => [primaryKey({ columns: [t.moduleId, t.diseaseTypeId] }), index('mdt_disease_type_idx').on(t.diseaseTypeId)],
);

export const moduleQuestionCategories = pgTable(
  'module_question_categories',
  {
    moduleId: uuid('module_id')
      .notNull()
      .references(() => modules.id, { onDelete: 'cascade' }),
    questionCategoryId: uuid('question_category_id')
      .notNull()
      .references(() => questionCategories.id, { onDelete: 'restrict' }),
  },
  (t) => [
    primaryKey({ columns: [t.moduleId, t.questionCategoryId] }),
    index('mqc_question_category_idx').on(t.questionCategoryId),
  ],
);
