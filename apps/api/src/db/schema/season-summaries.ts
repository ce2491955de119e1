import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { seasonSummaryStatuses } from '@pss/contract';
import type { SummaryFile } from '@pss/contract';
import { projects, seasons } from './projects.js';

/** An uploaded file of a summary: where storage keeps it, and what it is (checked by content). */
export interface StoredSummaryFile {
  key: string;
  name: string;
  type: SummaryFile['content_type'];
  bytes: number;
}

/**
 * A season's Results Summary: one per season, DRAFT until posted. It is the
 * administrators' writing, not a clinician's work, so it goes with its season (as the
 * season's email variants do); nothing of a participant's hangs off it.
 */
export const seasonSummaries = pgTable(
  'season_summaries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    seasonId: uuid('season_id')
      .notNull()
      .references(() => seasons.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    /** Rich text, sanitised on save. */
    description: text('description').notNull().default(''),
    greeting: text('greeting').notNull().default(''),
    videoUrl: text('video_url'),
    sheet: jsonb('sheet').$type<StoredSummaryFile>(),
    video: jsonb('video').$type<StoredSummaryFile>(),
    status: text('status', { enum: seasonSummaryStatuses }).notNull().default('DRAFT'),
    postedAt: timestamp('posted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('season_summaries_season_key').on(t.seasonId),
    // A participant's dashboard reads the posted summaries of their projects.
    index('season_summaries_project_idx').on(t.projectId, t.status),
    check('season_summaries_status_check', sql`${t.status} in ('DRAFT', 'POSTED')`),
    // A video is an upload or a link, not both.
    check('season_summaries_one_video_check', sql`${t.video} is null or ${t.videoUrl} is null`),
  ],
);
