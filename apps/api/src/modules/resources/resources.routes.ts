import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_RESOURCE_BYTES, MAX_RESOURCE_UPLOAD_BYTES, resourceRoutes } from '@pss/contract';
import { caller } from '../../lib/access-control.js';
import { AppError } from '../../lib/errors.js';
import { contractRoutes } from '../../lib/contract-routes.js';
import type { FileStorage } from '../../lib/storage.js';
import { sendTable } from '../../lib/table-writer.js';
import { receiveUpload, withUpload } from '../../lib/uploads.js';
import type { ResourceDownload, ResourcesService } from './resources.service.js';

const tags = ['Resource library'];
const MB = 1024 * 1024;

/** A Content-Disposition that any browser reads: an ASCII name, and the real one in RFC 5987 form. */
function disposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\w .()-]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * What a `Range` header asks of a file of `size` bytes (RFC 9110 §14): one range within it
 * (`{ start, end }`, clamped to its end); `unsatisfiable` when every range it names starts
 * past the end (416); null for the whole file when there is no header, it is malformed or
 * in another unit (ignored, as the RFC allows), or it names several ranges (a multipart
 * answer is not worth its cost).
 */
export function byteRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | null {
  const specifier = header ? /^\s*bytes\s*=(.*)$/i.exec(header) : null;
  const specs = (specifier?.[1] ?? '').split(',').filter((spec) => spec.trim());
  if (!specs.length) return null;
  const satisfiable: { start: number; end: number }[] = [];
  for (const spec of specs) {
    const parts = /^\s*(\d*)-(\d*)\s*$/.exec(spec);
    const first = parts?.[1] ? Number(parts[1]) : null;
    const last = parts?.[2] ? Number(parts[2]) : null;
    if (first === null && last === null) return null;
    if (first !== null && last !== null && last < first) return null;
    if (first !== null) {
      if (first < size) satisfiable.push({ start: first, end: Math.min(last ?? size - 1, size - 1) });
    } else if (last !== null && last > 0 && size > 0) {
      // A suffix: the last `last` bytes.
      satisfiable.push({ start: Math.max(0, size - last), end: size - 1 });
    }
  }
  const [only, ...more] = satisfiable;
  if (!only) return 'unsatisfiable';
  return more.length ? null : only;
}

/**
 * Sends a stored file with the type read from its bytes, `nosniff`, and a Content-Security-
 * Policy of its own that runs nothing: never as a page. A single byte range is answered
 * (206) so a video can be sought in; a range past the end is 416 RANGE_NOT_SATISFIABLE with
 * the file's size in `Content-Range`.
 */
function send(request: FastifyRequest, reply: FastifyReply, file: ResourceDownload) {
  const range = byteRange(request.headers.range, file.bytes);
  if (range === 'unsatisfiable') {
    reply.header('content-range', `bytes */${file.bytes}`);
    throw new AppError('RANGE_NOT_SATISFIABLE');
  }
  const pdf = file.type === 'application/pdf';
  reply
    .header('content-type', file.type)
    .header('x-content-type-options', 'nosniff')
    .header('content-disposition', disposition(file.disposition, file.name))
    .header('cache-control', 'private, no-store')
    .header('accept-ranges', 'bytes')
    .header(
      'content-security-policy',
      // A browser's own PDF viewer does not run in a sandboxed document; a PDF has no scripts of ours to run anyway.
      `default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'${pdf ? '' : '; sandbox'}`,
    )
    .header('cross-origin-resource-policy', 'same-origin');
  if (range) {
    return reply
      .code(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${file.bytes}`)
      .header('content-length', range.end - range.start + 1)
      .send(file.open(range));
  }
  return reply.header('content-length', file.bytes).send(file.open());
}

export function registerResourcesRoutes(app: FastifyInstance, service: ResourcesService, storage: FileStorage): void {
  const implement = contractRoutes(app);

  implement(
    resourceRoutes.list,
    {
      tags,
      summary: 'The resource library, paged',
      description:
        'Sortable by `name`, `source_type`, `created_at`, `updated_at`; `search` looks in names and links. `filter` ' +
        'is `{"source_type": ["PDF","IMAGE","VIDEO","URL","TEXT"], "category_id", "client_id" (resources attached ' +
        'to that client’s cases), "attachment_status": "NOT_ATTACHED"|"ATTACHED_ACTIVE"|"ATTACHED_INACTIVE"}`. ' +
        'A case is active when published in an active project.',
    },
    async (request) => service.list(request.query),
  );

  implement(
    resourceRoutes.create,
    {
      tags,
      summary: 'Create a URL or TEXT resource',
      description:
        'A URL resource needs `link` (http or https; the library holds each address once: another resource with ' +
        'it, even written with another case of host, a default port or a trailing slash, answers 409 ' +
        'URL_ALREADY_EXISTS); a TEXT resource keeps its text in `details`. Files are uploaded with ' +
        '`POST /resource-library/upload`.',
    },
    async (request) => service.create(caller(request), request.body),
  );

  implement(
    resourceRoutes.remove,
    {
      tags,
      summary: 'Delete resources by selection (`filter` is a JSON selection)',
      description:
        '`filter` is `{"ids":[…]}` or `{"all":true,"except":[…],"search":…,"filter":{…}}` (the list’s search and ' +
        'filter). All or nothing: if any resource of the selection is attached to a case, nothing is deleted and ' +
        'the answer is 409 RESOURCE_ATTACHED_DELETE_FORBIDDEN, whose message and `details.resources[]` name each ' +
        'attached resource and its cases. A named id that does not exist: 404 NOT_FOUND. Files go with their rows.',
    },
    async (request) => service.remove(request.query.filter),
  );

  implement(
    resourceRoutes.categories,
    { tags, summary: 'The resource categories, by name (for the library’s filters and the picker)' },
    async () => service.categories(),
  );

  implement(
    resourceRoutes.createCategory,
    {
      tags,
      summary: 'Create a resource category',
      description: 'A name the library already has (regardless of case) answers that category.',
    },
    async (request) => service.createCategory(request.body.name),
  );

  implement(
    resourceRoutes.export,
    {
      tags,
      summary: 'Export the library (CSV, or XLSX with `format=xlsx`)',
      description:
        'The list’s `search`, `filter` and `sort`; every matching resource, streamed a page at a time: name, type, ' +
        'categories, link, file name, file type, size, attachment status, attached cases, details, created, updated.',
    },
    async (request, reply) => sendTable(reply, service.exportTable(request.query), request.query.format),
  );

  implement(
    resourceRoutes.modal,
    {
      tags,
      summary: 'The resource picker of Case Setup',
      description:
        'Filters: `client` (resources attached to that client’s cases), `category`, `type`, `search`, ' +
        '`attachmentStatus`. A client administrator sees the whole library, with attachment facts of their own ' +
        'client’s cases only; another client named in `client` answers 404 NOT_FOUND.',
    },
    async (request) => service.modal(caller(request), request.query),
  );

  implement(
    resourceRoutes.upload,
    {
      tags,
      summary: `Upload a PDF, JPEG, PNG, MP4 or MOV file as a resource (multipart field \`file\`)`,
      description:
        'The kind is read from the file’s bytes, never its name. Refused with VALIDATION_ERROR on `body.file`, ' +
        'leaving nothing stored: any other kind, a name that claims another kind (an HTML page called `.pdf`, a ' +
        'PNG called `.mp4`), a polyglot (web page markup in its first kilobyte, or data after the format’s end), ' +
        `a broken video structure. Larger than its kind allows (PDF ${MAX_RESOURCE_BYTES.PDF / MB} MB, image ` +
        `${MAX_RESOURCE_BYTES.IMAGE / MB} MB, video ${MAX_RESOURCE_BYTES.VIDEO / MB} MB): PAYLOAD_TOO_LARGE. The ` +
        'resource is named after the file; its thumbnail (images, a PDF’s first page) and media facts (pages, ' +
        'size, a video’s length) are made in the background (`file.thumbnail_status`).',
    },
    async (request) => {
      const upload = await receiveUpload(request, storage, {
        maxBytes: MAX_RESOURCE_UPLOAD_BYTES,
        prefix: 'resources',
      });
      return withUpload(storage, upload, () => service.upload(caller(request), upload));
    },
  );

  implement(
    resourceRoutes.fileDetails,
    {
      tags,
      summary: 'A resource’s file: what it is, with signed links to view, download and its thumbnail',
      description:
        'Links work without a session until `expires_at` (`RESOURCE_LINK_TTL_MINUTES`); an altered or expired ' +
        'link answers 403 SIGNED_LINK_INVALID. A link or text resource: 404 NOT_FOUND.',
    },
    async (request) => service.fileDetails(request.params.id),
  );

  implement(
    resourceRoutes.fileLink,
    { tags, summary: 'A signed link that shows a resource’s file (inline, with its true type), for a while' },
    async (request) => service.fileLink(request.params.id),
  );

  implement(
    resourceRoutes.thumbnailLink,
    {
      tags,
      summary: 'A signed link to a resource’s thumbnail, once it is made',
      description: '`url` is null while the thumbnail is PENDING, if it FAILED, or for a video (NONE).',
    },
    async (request) => service.thumbnailLink(request.params.id),
  );

  implement(
    resourceRoutes.cases,
    { tags, summary: 'The cases a resource is attached to, with their project or module and client' },
    async (request) => service.cases(request.params.id),
  );

  implement(
    resourceRoutes.clients,
    { tags, summary: 'The clients whose cases a resource is attached to' },
    async (request) => service.clients(request.params.id),
  );

  implement(
    resourceRoutes.duplicate,
    {
      tags,
      summary: 'Duplicate a resource',
      description:
        'The copy has its own file and thumbnail, the same details and categories, and `duplicate_of`; its name ' +
        'is `name` or "Copy of …". A URL resource’s copy needs its own `link` (409 URL_ALREADY_EXISTS otherwise).',
    },
    async (request) => service.duplicate(caller(request), request.params.id, request.body),
  );

  implement(resourceRoutes.get, { tags, summary: 'A resource' }, async (request) => service.get(request.params.id));

  implement(
    resourceRoutes.update,
    {
      tags,
      summary: 'Edit a resource: name, details, categories, and a URL resource’s link',
      description:
        'Its kind and file stay. A link another resource has: 409 URL_ALREADY_EXISTS; a link on a file or text ' +
        'resource: VALIDATION_ERROR.',
    },
    async (request) => service.update(request.params.id, request.body),
  );

  implement(
    resourceRoutes.ofCase,
    { tags, summary: 'A case’s resources, in order (whoever may see the case)' },
    async (request) => service.ofCase(caller(request), request.params.id),
  );

  implement(
    resourceRoutes.setOfCase,
    {
      tags,
      summary: 'Set a draft case’s resources (in the order given)',
      description:
        'Replaces the case’s resources. A published or active case: 403 CHANGES_FORBIDDEN; another client’s case: ' +
        '404 CASE_NOT_FOUND; a resource that does not exist: VALIDATION_ERROR on `body.resource_ids`.',
    },
    async (request) => service.setOfCase(caller(request), request.params.id, request.body.resource_ids),
  );

  implement(
    resourceRoutes.ofAttempt,
    {
      tags,
      summary: 'A participant’s resources of their own case, with signed links to the files',
      description: 'Only the caller’s own unlocked case: another’s answers 404 NOT_FOUND.',
    },
    async (request) => service.ofAttempt(caller(request), request.params.userSeasonRoundCaseId),
  );

  implement(
    resourceRoutes.signedFile,
    {
      tags,
      summary: 'A resource’s file or thumbnail behind a signed link (the token is the permission)',
      description:
        'Sent with the type read from its bytes, `nosniff`, a Content-Security-Policy that runs nothing, inline ' +
        'or as an attachment as the link says; a single `Range` is answered with 206, one past the end with 416 ' +
        'RANGE_NOT_SATISFIABLE (`Content-Range: bytes */<size>`). An altered or expired token: 403 SIGNED_LINK_INVALID.',
    },
    async (request, reply) => send(request, reply, await service.signedFile(request.params.token)),
  );
}
