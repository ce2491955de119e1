import type { Readable } from 'node:stream';
import type {
  PostedSeasonSummary,
  SaveSeasonSummaryBody,
  SeasonSummary,
  SeasonSummaryOfSeason,
  SeasonSummaryStatusValue,
  SummaryFile,
} from '@pss/contract';
import type { Db } from '../../db/client.js';
import type { StoredSummaryFile } from '../../db/schema/index.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, validationError } from '../../lib/errors.js';
import { sheetTypeOf, videoTypeOf } from '../../lib/media-type.js';
import { sanitizeRichText } from '../../lib/rich-text.js';
import { readHead, type FileStorage } from '../../lib/storage.js';
import type { AccessClaims } from '../../lib/tokens.js';
import type { StoredUpload } from '../../lib/uploads.js';
import type { ProjectsService } from '../projects/projects.service.js';
import {
  createSeasonSummariesRepository,
  type SeasonSummaryRow,
  type SummaryFileKind,
} from './season-summaries.repository.js';

const describe = (file: StoredSummaryFile | null): SummaryFile | null =>
  file && { file_name: file.name, content_type: file.type, bytes: file.bytes };

export function toSeasonSummary(row: SeasonSummaryRow): SeasonSummary {
  return {
    id: row.id,
    project_id: row.projectId,
    season_id: row.seasonId,
    season_name: row.seasonName,
    title: row.title,
    description: row.description,
    greeting: row.greeting,
    video_url: row.videoUrl,
    sheet: describe(row.sheet),
    video: describe(row.video),
    status: row.status,
    posted_at: row.postedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function toPosted(row: SeasonSummaryRow): PostedSeasonSummary {
  return {
    id: row.id,
    season_name: row.seasonName,
    title: row.title,
    description: row.description,
    greeting: row.greeting,
    video_url: row.videoUrl,
    sheet: describe(row.sheet),
    video: describe(row.video),
    posted_at: (row.postedAt ?? row.updatedAt).toISOString(),
  };
}

const extensionOf: Record<StoredSummaryFile['type'], string> = {
  'application/pdf': '.pdf',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': '.xlsx',
  'video/mp4': '.mp4',
  'video/quicktime': '.mov',
};

/**
 * The name a file is kept and served under: the uploader's, without folders or control
 * characters, ending in the extension of what the file really is.
 */
export function storedName(uploaded: string, type: StoredSummaryFile['type'], fallback: string): string {
  const base =
    uploaded
      .split(/[\\/]/)
      .pop()!
      // eslint-disable-next-line no-control-regex -- control characters are what is removed
      .replace(/[\u0000-\u001f\u007f"]/g, '')
      .trim()
      .slice(0, 200) || fallback;
  const extension = extensionOf[type];
  return base.toLowerCase().endsWith(extension) ? base : `${base}${extension}`;
}

/** A stored file, ready to be sent: its bytes as a stream, with what it is. */
export interface SummaryDownload {
  stream: Readable;
  type: string;
  name: string;
  bytes: number;
}

const bothVideos = (field: 'body.video_url' | 'body.file') =>
  validationError([
    {
      field,
      message:
        field === 'body.file'
          ? 'This summary has a video link: remove the link before uploading a video.'
          : 'This summary has an uploaded video: remove it before giving a link.',
    },
  ]);

/**
 * Season Results Summaries: written, posted and taken down by whoever may see the project;
 * read, once posted, by the participants who completed the season (each only their own:
 * anyone else is told "not found"). Another client's summary is "not found" too.
 */
export function createSeasonSummariesService(deps: {
  db: Db;
  projects: Pick<ProjectsService, 'requireVisible'>;
  storage: FileStorage;
  clock: Clock;
}) {
  const summaries = createSeasonSummariesRepository(deps.db);
  const { storage } = deps;

  async function seasonOf(caller: AccessClaims, projectId: string, seasonName: string) {
    await deps.projects.requireVisible(caller, projectId);
    const season = await summaries.seasonByName(projectId, seasonName);
    if (!season) throw new AppError('NOT_FOUND', { message: `The project has no season "${seasonName}".` });
    return season;
  }

  /** A summary in a project the caller may see; any other id is "not found". */
  async function visibleSummary(caller: AccessClaims, id: string): Promise<SeasonSummaryRow> {
    const row = await summaries.findById(id);
    if (!row) throw new AppError('NOT_FOUND');
    await deps.projects.requireVisible(caller, row.projectId).catch(() => {
      throw new AppError('NOT_FOUND');
    });
    return row;
  }

  function download(row: SeasonSummaryRow, kind: SummaryFileKind): SummaryDownload {
    const file = row[kind];
    if (!file) throw new AppError('NOT_FOUND', { message: `This summary has no ${kind}.` });
    return { stream: storage.stream(file.key), type: file.type, name: file.name, bytes: file.bytes };
  }

  /** What a stored upload is, by its content; refused (VALIDATION_ERROR) when not the kind asked for. */
  async function typeOf(kind: SummaryFileKind, upload: StoredUpload): Promise<StoredSummaryFile['type']> {
    if (kind === 'sheet') {
      const type = sheetTypeOf(await storage.get(upload.key));
      if (!type) throw validationError([{ field: 'body.file', message: 'The sheet must be a PDF or XLSX file.' }]);
      return type;
    }
    const type = videoTypeOf(await readHead(storage, upload.key, 12));
    if (!type) throw validationError([{ field: 'body.file', message: 'The video must be an MP4 or MOV file.' }]);
    return type;
  }

  /**
   * Writes a file's entry under the row's lock, so two uploads at once cannot both replace
   * the same file (and leave one on disk); the file replaced is removed once that has committed.
   */
  async function writeFile(id: string, kind: SummaryFileKind, file: StoredSummaryFile | null) {
    const outcome = await deps.db.transaction(async (tx) => {
      const locked = createSeasonSummariesRepository(tx);
      const current = await locked.lock(id);
      if (!current) throw new AppError('NOT_FOUND');
      if (kind === 'video' && file && current.videoUrl) throw bothVideos('body.file');
      const saved = await locked.setFile(id, kind, file, deps.clock.now());
      return { saved: saved!, replaced: current[kind] };
    });
    if (outcome.replaced) await storage.remove(outcome.replaced.key);
    return outcome.saved;
  }

  return {
    async ofSeason(caller: AccessClaims, projectId: string, seasonName: string): Promise<SeasonSummaryOfSeason> {
      const season = await seasonOf(caller, projectId, seasonName);
      const row = await summaries.findBySeason(season.id);
      return { season_id: season.id, season_name: season.name, summary: row ? toSeasonSummary(row) : null };
    },

    /** Creates the season's summary (DRAFT) or replaces its texts; its status and files stay as they are. */
    async save(
      caller: AccessClaims,
      projectId: string,
      seasonName: string,
      body: SaveSeasonSummaryBody,
    ): Promise<SeasonSummary> {
      const season = await seasonOf(caller, projectId, seasonName);
      const saved = await summaries.save(
        projectId,
        season.id,
        {
          title: body.title,
          description: sanitizeRichText(body.description ?? ''),
          greeting: body.greeting ?? '',
          videoUrl: body.video_url ?? null,
        },
        deps.clock.now(),
      );
      if (!saved) throw bothVideos('body.video_url');
      return toSeasonSummary(saved);
    },

    async setStatus(caller: AccessClaims, id: string, status: SeasonSummaryStatusValue): Promise<SeasonSummary> {
      await visibleSummary(caller, id);
      return toSeasonSummary(await summaries.setStatus(id, status, deps.clock.now()));
    },

    /** Sets the sheet or the video from a stored upload (checked by content); the one it replaces is removed. */
    async setFile(
      caller: AccessClaims,
      id: string,
      kind: SummaryFileKind,
      upload: StoredUpload,
    ): Promise<SeasonSummary> {
      await visibleSummary(caller, id);
      const type = await typeOf(kind, upload);
      const file = { key: upload.key, name: storedName(upload.fileName, type, kind), type, bytes: upload.bytes };
      return toSeasonSummary(await writeFile(id, kind, file));
    },

    async removeFile(caller: AccessClaims, id: string, kind: SummaryFileKind): Promise<SeasonSummary> {
      await visibleSummary(caller, id);
      return toSeasonSummary(await writeFile(id, kind, null));
    },

    async file(caller: AccessClaims, id: string, kind: SummaryFileKind): Promise<SummaryDownload> {
      return download(await visibleSummary(caller, id), kind);
    },

    /** A participant's own posted summary's file: its season completed, else "not found". */
    async participantFile(caller: AccessClaims, id: string, kind: SummaryFileKind): Promise<SummaryDownload> {
      await summaries.syncParticipant(caller.userId);
      const [row] = await summaries.postedFor(caller.userId, id);
      if (!row) throw new AppError('NOT_FOUND');
      return download(row, kind);
    },

    /**
     * The posted summaries a participant's dashboard shows, by project: those of the seasons
     * they completed. Their UserSeasonRoundCases are made first (the dashboard has done it).
     */
    async postedFor(userId: string): Promise<Map<string, PostedSeasonSummary[]>> {
      const byProject = new Map<string, PostedSeasonSummary[]>();
      for (const row of await summaries.postedFor(userId)) {
        byProject.set(row.projectId, [...(byProject.get(row.projectId) ?? []), toPosted(row)]);
      }
      return byProject;
    },
  };
}

export type SeasonSummariesService = ReturnType<typeof createSeasonSummariesService>;
