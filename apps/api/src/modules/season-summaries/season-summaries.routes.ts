import type { FastifyInstance, FastifyReply } from 'fastify';
import { MAX_SUMMARY_SHEET_BYTES, MAX_SUMMARY_VIDEO_BYTES, seasonSummaryRoutes } from '@pss/contract';
import { caller } from '../../lib/access-control.js';
import { contractRoutes } from '../../lib/contract-routes.js';
import type { FileStorage } from '../../lib/storage.js';
import { receiveUpload, withUpload } from '../../lib/uploads.js';
import type { SeasonSummariesService, SummaryDownload } from './season-summaries.service.js';

const tags = ['Season results summaries'];
const MB = 1024 * 1024;

/** A Content-Disposition that any browser reads: an ASCII name, and the real one in RFC 5987 form. */
export function attachment(name: string): string {
  const ascii = name.replace(/[^\w .()-]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** Sends a stored file with its true type; never shown inline or sniffed into something else. */
function send(reply: FastifyReply, file: SummaryDownload) {
  return reply
    .header('content-type', file.type)
    .header('content-length', file.bytes)
    .header('content-disposition', attachment(file.name))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .send(file.stream);
}

const kinds = {
  sheet: {
    what: 'sheet',
    accepted: 'PDF or XLSX',
    maxBytes: MAX_SUMMARY_SHEET_BYTES,
    set: seasonSummaryRoutes.setSheet,
    remove: seasonSummaryRoutes.removeSheet,
    get: seasonSummaryRoutes.sheet,
    participant: seasonSummaryRoutes.participantSheet,
  },
  video: {
    what: 'video',
    accepted: 'MP4 or MOV',
    maxBytes: MAX_SUMMARY_VIDEO_BYTES,
    set: seasonSummaryRoutes.setVideo,
    remove: seasonSummaryRoutes.removeVideo,
    get: seasonSummaryRoutes.video,
    participant: seasonSummaryRoutes.participantVideo,
  },
} as const;

export function registerSeasonSummariesRoutes(
  app: FastifyInstance,
  service: SeasonSummariesService,
  storage: FileStorage,
): void {
  const implement = contractRoutes(app);

  implement(
    seasonSummaryRoutes.get,
    {
      tags,
      summary: 'A season’s results summary (`seasonName` names the season; the id is the project’s)',
      description:
        'Answers the season and its summary, or `summary: null` while none was saved. A name the project has no ' +
        'season for: 404 NOT_FOUND. Another client’s project: 404 PROJECT_NOT_FOUND.',
    },
    async (request) => service.ofSeason(caller(request), request.params.id, request.query.seasonName),
  );

  implement(
    seasonSummaryRoutes.save,
    {
      tags,
      summary: 'Save a season’s results summary: title, description (rich text, sanitised), greeting, video link',
      description:
        'The first save creates the summary as a DRAFT; later saves replace its texts and keep its status (a ' +
        'posted summary shows the new texts at once) and its files. `title` is required; `video_url` is an http(s) ' +
        'address or null, refused (VALIDATION_ERROR on `body.video_url`) while a video is uploaded: a summary has ' +
        'one video, uploaded or linked.',
    },
    async (request) => service.save(caller(request), request.params.id, request.query.seasonName, request.body),
  );

  implement(
    seasonSummaryRoutes.setStatus,
    {
      tags,
      summary: 'Post a season’s results summary, or take it down (the id is the summary’s)',
      description:
        'POSTED shows the summary on the dashboard of every participant who completed its season (every case of ' +
        'theirs in it COMPLETE), and to each who completes it later; DRAFT takes it off. Posting a posted summary ' +
        'keeps its `posted_at`.',
    },
    async (request) => service.setStatus(caller(request), request.params.id, request.body.status),
  );

  for (const kind of ['sheet', 'video'] as const) {
    const k = kinds[kind];
    implement(
      k.set,
      {
        tags,
        summary: `Upload a summary’s ${k.what} (multipart field \`file\`: ${k.accepted}, at most ${k.maxBytes / MB} MB)`,
        description:
          `The type is read from the file’s content, not its name (anything else: VALIDATION_ERROR on ` +
          `\`body.file\`; larger: PAYLOAD_TOO_LARGE). It replaces the summary’s ${k.what}, which is deleted.` +
          (kind === 'video' ? ' Refused while the summary has a video link.' : ''),
      },
      async (request) => {
        const upload = await receiveUpload(request, storage, { maxBytes: k.maxBytes, prefix: 'season-summaries' });
        return withUpload(storage, upload, () => service.setFile(caller(request), request.params.id, kind, upload));
      },
    );
    implement(k.remove, { tags, summary: `Remove a summary’s ${k.what} (its file is deleted)` }, async (request) =>
      service.removeFile(caller(request), request.params.id, kind),
    );
    implement(
      k.get,
      {
        tags,
        summary: `Download a summary’s ${k.what}, as its editor checks it`,
        description: 'Sent with its true type, `nosniff`, as an attachment. No such file: 404 NOT_FOUND.',
      },
      async (request, reply) => send(reply, await service.file(caller(request), request.params.id, kind)),
    );
    implement(
      k.participant,
      {
        tags,
        summary: `A participant downloads the ${k.what} of a posted summary of a season they completed`,
        description:
          'Only the caller’s own: a summary that is not posted, of a season the caller has not completed, or of ' +
          'another project answers 404 NOT_FOUND.',
      },
      async (request, reply) => send(reply, await service.participantFile(caller(request), request.params.id, kind)),
    );
  }
}
