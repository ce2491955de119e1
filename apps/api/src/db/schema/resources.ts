import { sql } from 'drizzle-orm';
import { resourceSourceTypes } from '@pss/contract';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { ResourceFile } from '@pss/contract';
import { cases } from './cases.js';
import { users } from './users.js';

/** An uploaded resource's file: where storage keeps it, and what it is (checked by content). */
export interface StoredResourceFile {
  key: string;
  name: string;
  type: ResourceFile['content_type'];
  bytes: number;
}

/** What the background work read from a file: a PDF's pages, an image's size, a video's length. */
export interface ResourceMedia {
  pageCount?: number;
  width?: number;
  height?: number;
  durationSeconds?: number;
}

/**
 * A resource of the provider's library. PDF, IMAGE and VIDEO carry a file; URL a link
 * (unique by its normal form `linkKey`: the same address is never in the library twice,
 * however written); TEXT its text in `details`.
 * A file's thumbnail and media facts are made in the background after upload
 * (`processing`: PENDING → RUNNING → READY | FAILED; NONE for links and texts).
 */
export const resources = pgTable(
  'resources',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    sourceType: text('source_type', { enum: resourceSourceTypes }).notNull(),
    details: text('details').notNull().default(''),
    link: text('link'),
    /**
     * The link's normal form, on which the library judges two links the same (unique):
     * scheme and host lower case, no default port, no trailing slash on the path
     * (`normalLinkKey`). Null for files and texts, and for a link that was already in the
     * library twice before the rule (kept, but not a place a new one may take).
     */
    linkKey: text('link_key'),
    file: jsonb('file').$type<StoredResourceFile>(),
    media: jsonb('media').$type<ResourceMedia>(),
    thumbnailKey: text('thumbnail_key'),
    processing: text('processing', { enum: ['NONE', 'PENDING', 'RUNNING', 'READY', 'FAILED'] })
      .notNull()
      .default('NONE'),
    /** When a worker claimed the processing; a claim older than the lease is taken over. */
    processingClaimedAt: timestamp('processing_claimed_at', { withTimezone: true }),
    /** How often the processing was claimed: bounded, so a file that kills its process is not taken forever. */
    processingAttempts: integer('processing_attempts').notNull().default(0),
    duplicateOf: uuid('duplicate_of'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('resources_link_key_key')
      .on(t.linkKey)
      .where(sql`${t.linkKey} is not null`),
    index('resources_name_idx').on(sql`lower(${t.name})`, t.id),
    index('resources_type_name_idx').on(t.sourceType, sql`lower(${t.name})`, t.id),
    index('resources_created_idx').on(t.createdAt, t.id),
    index('resources_updated_idx').on(t.updatedAt, t.id),
    index('resources_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
    index('resources_processing_idx')
      .on(t.createdAt)
      .where(sql`${t.processing} in ('PENDING', 'RUNNING')`),
    check('resources_source_type_check', sql`${t.sourceType} in ('PDF', 'IMAGE', 'VIDEO', 'URL', 'TEXT')`),
    check('resources_processing_check', sql`${t.processing} in ('NONE', 'PENDING', 'RUNNING', 'READY', 'FAILED')`),
    // A file for the uploaded kinds, a link for a URL, neither for a text.
    check(
      'resources_content_check',
      sql`(${t.sourceType} in ('PDF', 'IMAGE', 'VIDEO') and ${t.file} is not null and ${t.link} is null)
        or (${t.sourceType} = 'URL' and ${t.link} is not null and ${t.file} is null)
        or (${t.sourceType} = 'TEXT' and ${t.link} is null and ${t.file} is null)`,
    ),
  ],
);

/** The library's categories (names unique regardless of case). */
export const resourceCategories = pgTable(
  'resource_categories',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('resource_categories_name_key').on(sql`lower(${t.name})`)],
);

export const resourceCategoryLinks = pgTable(
  'resource_category_links',
  {
    resourceId: uuid('resource_id')
      .notNull()
      .references(() => resources.id, { onDelete: 'cascade' }),
    categoryId: uuid('category_id')
      .notNull()
      .references(() => resourceCategories.id, { onDelete: 'restrict' }),
  },
  (t) => [
    primaryKey({ columns: [t.resourceId, t.categoryId] }),
    index('resource_category_links_category_idx').on(t.categoryId),
  ],
);

/**
 * A resource attached to a case, in the case's order. The attachment is the author's
 * writing and goes with its case; a resource attached anywhere cannot be deleted (RESTRICT).
 */
export const caseResources = pgTable(
  'case_resources',
  {
    caseId: uuid('case_id')
      .notNull()
      .references(() => cases.id, { onDelete: 'cascade' }),
    resourceId: uuid('resource_id')
      .notNull()
      .references(() => resources.id, { onDelete: 'restrict' }),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.caseId, t.resourceId] }), index('case_resources_resource_idx').on(t.resourceId)],
);
