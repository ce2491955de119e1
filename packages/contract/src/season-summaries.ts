import { z } from 'zod';
import { MAX_RICH_TEXT } from './case-rules.js';
import { SeasonSummaryStatus } from './enums.js';
import { requiredText } from './text-fields.js';

/**
 * A Season Results Summary (spec §3, §4): what a season found, for the participants who
 * completed it — a title, a rich-text description, a greeting, a sheet (PDF or XLSX), a
 * video (an MP4/MOV upload, or a link). One per season of a project; DRAFT until posted.
 * Posting shows it on the dashboard of every participant who completed the season (every
 * case of theirs in it COMPLETE); taking it down (back to DRAFT) removes it.
 */

export type SeasonSummaryStatusValue = z.infer<typeof SeasonSummaryStatus>;

/** The sheet: PDF or XLSX, checked by content. */
export const MAX_SUMMARY_SHEET_BYTES = 20 * 1024 * 1024;
/** The video: MP4 or MOV, checked by content. */
export const MAX_SUMMARY_VIDEO_BYTES = 200 * 1024 * 1024;
export const MAX_SUMMARY_TITLE = 200;
export const MAX_SUMMARY_GREETING = 2000;
export const MAX_SUMMARY_VIDEO_URL = 2000;

/** The types a stored sheet or video may have, as they are served. */
export const summarySheetTypes = [
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
] as const;
export const summaryVideoTypes = ['video/mp4', 'video/quicktime'] as const;

/** An uploaded file of a summary, as it is described (its bytes come from its own call). */
export const summaryFile = z.object({
  file_name: z.string(),
  content_type: z.enum([...summarySheetTypes, ...summaryVideoTypes]),
  bytes: z.number().int(),
});
export type SummaryFile = z.infer<typeof summaryFile>;

/** An http(s) address, or nothing ('' is nothing). */
const videoUrl = z
  .string()
  .trim()
  .max(MAX_SUMMARY_VIDEO_URL, 'INVALID_URL')
  .transform((value) => (value === '' ? null : value))
  .pipe(z.url({ protocol: /^https?$/, hostname: z.regexes.domain, message: 'INVALID_URL' }).nullable())
  .nullish()
  .transform((value) => value ?? null);

/** Saving a summary: creates the season's summary (DRAFT) or replaces its texts; its status and files stay. */
export const saveSeasonSummaryBody = z.strictObject({
  title: requiredText(MAX_SUMMARY_TITLE),
  /** Rich text (HTML), sanitised by the server. */
  description: z.string().max(MAX_RICH_TEXT).default(''),
  greeting: z.string().trim().max(MAX_SUMMARY_GREETING).default(''),
  /** A video by link (http or https); not together with an uploaded video. */
  video_url: videoUrl,
});
export type SaveSeasonSummaryBody = z.input<typeof saveSeasonSummaryBody>;

export const seasonSummaryStatusBody = z.strictObject({ status: SeasonSummaryStatus });

/** A season's summary as its editor reads it. */
export const seasonSummary = z.object({
  id: z.string().uuid(),
  project_id: z.string().uuid(),
  season_id: z.string().uuid(),
  season_name: z.string(),
  title: z.string(),
  description: z.string(),
  greeting: z.string(),
  video_url: z.string().nullable(),
  sheet: summaryFile.nullable(),
  video: summaryFile.nullable(),
  status: SeasonSummaryStatus,
  posted_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type SeasonSummary = z.infer<typeof seasonSummary>;

/** `GET …/season-summary?seasonName=`: the season, and its summary once one was saved (else null). */
export const seasonSummaryOfSeason = z.object({
  season_id: z.string().uuid(),
  season_name: z.string(),
  summary: seasonSummary.nullable(),
});
export type SeasonSummaryOfSeason = z.infer<typeof seasonSummaryOfSeason>;

/** A posted summary as the dashboard of a participant who completed its season shows it. */
export const postedSeasonSummary = z.object({
  id: z.string().uuid(),
  season_name: z.string(),
  title: z.string(),
  description: z.string(),
  greeting: z.string(),
  video_url: z.string().nullable(),
  sheet: summaryFile.nullable(),
  video: summaryFile.nullable(),
  posted_at: z.string(),
});
export type PostedSeasonSummary = z.infer<typeof postedSeasonSummary>;
