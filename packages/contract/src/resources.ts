import { z } from 'zod';
import { listQuerySchema, pagedSchema } from './list-query.js';
import { ReportFormat } from './reports.js';
import { CaseStatus, ProjectStatus, ResourceAttachmentStatus, ResourceSourceType } from './enums.js';
import { resourceSortFields } from './sort-fields.js';
import { requiredText } from './text-fields.js';
import { requiredTextProblem } from './text-rule.js';

/**
 * The Resource Library (spec §2, §3, §5, §7): PDFs, images, videos, links and texts that
 * authors attach to cases and participants read beside them. Files are checked by their
 * bytes, stored under DATA_DIR and reached only through signed links that expire.
 */

export type ResourceSourceTypeValue = z.infer<typeof ResourceSourceType>;
export type ResourceAttachmentStatusValue = z.infer<typeof ResourceAttachmentStatus>;

export const MAX_RESOURCE_NAME = 200;
export const MAX_RESOURCE_DETAILS = 20_000;
export const MAX_RESOURCE_LINK = 2000;
export const MAX_RESOURCE_CATEGORY_NAME = 100;
export const MAX_RESOURCE_CATEGORIES = 20;
/** Resources one case may hold. */
export const MAX_CASE_RESOURCES = 50;

/** The largest file of each uploaded kind (PAYLOAD_TOO_LARGE beyond it). */
export const MAX_RESOURCE_BYTES = {
  PDF: 50 * 1024 * 1024,
  IMAGE: 10 * 1024 * 1024,
  VIDEO: 500 * 1024 * 1024,
} as const;
/** The largest upload of any kind: what the upload streams before it knows the kind. */
export const MAX_RESOURCE_UPLOAD_BYTES = MAX_RESOURCE_BYTES.VIDEO;

/** The types a stored resource file may have, as it is served. */
export const resourceFileTypes = [
  'application/pdf',
  'image/jpeg',
  'image/png',
  'video/mp4',
  'video/quicktime',
] as const;
export const ResourceFileType = z.enum(resourceFileTypes);

/** Whether a file resource's thumbnail is made (in the background after upload), or will never be. */
export const ResourceThumbnailStatus = z.enum(['NONE', 'PENDING', 'READY', 'FAILED']);

const id = z.string().uuid();

/** An http(s) address, trimmed. */
const httpLink = z
  .string()
  .trim()
  .max(MAX_RESOURCE_LINK, 'INVALID_URL')
  .pipe(z.url({ protocol: /^https?$/, hostname: z.regexes.domain, message: 'INVALID_URL' }));

const name = requiredText(MAX_RESOURCE_NAME);
/** Optional except for a TEXT resource, whose text it is (checked with the one text rule); trimmed by the server. */
const details = z.string().max(MAX_RESOURCE_DETAILS).default('');
const categoryIds = z.array(id).max(MAX_RESOURCE_CATEGORIES).default([]);

/** What a written resource (URL or TEXT) needs: a link for a URL, a text (its details) for a TEXT. */
export const createResourceBody = z
  .strictObject({
    name,
    source_type: z.enum(['URL', 'TEXT']),
    link: httpLink.nullish(),
    details,
    category_ids: categoryIds,
  })
  .superRefine((body, ctx) => {
    if (body.source_type === 'URL' && !body.link) {
      ctx.addIssue({ code: 'custom', path: ['link'], message: 'FIELD_REQUIRED' });
    }
    if (body.source_type === 'TEXT' && body.link) {
      ctx.addIssue({ code: 'custom', path: ['link'], message: 'A text resource has no link.' });
    }
    const textProblem = body.source_type === 'TEXT' ? requiredTextProblem(body.details) : null;
    if (textProblem) ctx.addIssue({ code: 'custom', path: ['details'], message: textProblem });
  });
export type CreateResourceBody = z.input<typeof createResourceBody>;

/** An edit: the name, details and categories of any resource, and the link of a URL resource. */
export const updateResourceBody = z.strictObject({
  name,
  link: httpLink.nullish(),
  details,
  category_ids: categoryIds,
});
export type UpdateResourceBody = z.input<typeof updateResourceBody>;

/** A duplicate's name (else "Copy of …") and, for a URL resource, its own link (links are unique). */
export const duplicateResourceBody = z.strictObject({ name: name.optional(), link: httpLink.optional() }).nullish();

export const resourceCategory = z.object({ id, name: z.string() });
export type ResourceCategory = z.infer<typeof resourceCategory>;
export const createResourceCategoryBody = z.strictObject({
  name: requiredText(MAX_RESOURCE_CATEGORY_NAME),
});
export const resourceCategoryList = z.object({ items: z.array(resourceCategory) });

/** An uploaded resource's file, as it is described (its bytes come from a signed link). */
export const resourceFile = z.object({
  file_name: z.string(),
  content_type: ResourceFileType,
  bytes: z.number().int(),
  /** A PDF's pages, once read. */
  page_count: z.number().int().nullable(),
  /** An image's size in pixels. */
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  /** A video's length, once read. */
  duration_seconds: z.number().nullable(),
  thumbnail_status: ResourceThumbnailStatus,
});
export type ResourceFile = z.infer<typeof resourceFile>;

export const resource = z.object({
  id,
  name: z.string(),
  source_type: ResourceSourceType,
  details: z.string(),
  /** A URL resource's address (null for the other kinds). */
  link: z.string().nullable(),
  file: resourceFile.nullable(),
  categories: z.array(resourceCategory),
  attachment_status: ResourceAttachmentStatus,
  /** Cases it is attached to (a client administrator counts only their own client's). */
  attached_case_count: z.number().int(),
  /** The resource this one was duplicated from, while it exists. */
  duplicate_of: id.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Resource = z.infer<typeof resource>;
export const resourcePage = pagedSchema(resource);
export type ResourcePage = z.infer<typeof resourcePage>;

/** The library's filter: kinds, a category, a client (resources attached to its cases), attachment. */
export const resourceFilter = z.strictObject({
  source_type: z.array(ResourceSourceType).max(5).optional(),
  category_id: id.optional(),
  client_id: id.optional(),
  attachment_status: ResourceAttachmentStatus.optional(),
});
export type ResourceFilter = z.infer<typeof resourceFilter>;
export const resourceListQuery = listQuerySchema({
  sortable: resourceSortFields,
  defaultSort: [{ field: 'name', direction: 'ASC' }],
  filter: resourceFilter,
});
export type ResourceListQuery = z.output<typeof resourceListQuery>;

/** The export: the list's search and filter, as CSV or XLSX. */
export const resourceExportQuery = z.object({
  search: z.string().trim().max(200).optional(),
  filter: z.string().max(4000).optional(),
  sort: z.string().max(500).optional(),
  format: ReportFormat.default('csv'),
});

/** The picker of Case Setup (`GET /resource-library/modal`), with the specification's parameter names. */
export const resourceModalQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(25),
  client: id.optional(),
  category: id.optional(),
  type: ResourceSourceType.optional(),
  search: z.string().trim().max(200).optional(),
  attachmentStatus: ResourceAttachmentStatus.optional(),
});
export type ResourceModalQuery = z.output<typeof resourceModalQuery>;

/**
 * Which resources a bulk delete takes: chosen ids, or every resource matching the list's
 * search and filter except some (select-all with exceptions).
 */
export const resourceSelection = z.union([
  z.strictObject({ ids: z.array(id).min(1).max(1000) }),
  z.strictObject({
    all: z.literal(true),
    except: z.array(id).max(1000).default([]),
    search: z.string().trim().max(200).optional(),
    filter: resourceFilter.optional(),
  }),
]);
export type ResourceSelection = z.input<typeof resourceSelection>;

export const resourceDeleteQuery = z.object({
  /** A JSON selection: `{"ids":[…]}` or `{"all":true,"except":[…],"search":…,"filter":{…}}`. */
  filter: z
    .string()
    .min(1)
    .max(40_000)
    .transform((raw, ctx) => {
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'filter must be a JSON resource selection' });
        return z.NEVER;
      }
      const parsed = resourceSelection.safeParse(value);
      if (!parsed.success) {
        ctx.addIssue({ code: 'custom', message: 'filter must be {"ids":[…]} or {"all":true,"except":[…]}' });
        return z.NEVER;
      }
      return parsed.data;
    }),
});
export const deletedResources = z.object({ ids: z.array(id) });

/** A case a resource is attached to, with its home. */
export const resourceCaseUse = z.object({
  case_id: id,
  case_name: z.string(),
  case_status: CaseStatus,
  project_id: id.nullable(),
  project_name: z.string().nullable(),
  project_status: ProjectStatus.nullable(),
  module_id: id.nullable(),
  module_name: z.string().nullable(),
  client_id: id.nullable(),
  client_name: z.string().nullable(),
});
export type ResourceCaseUse = z.infer<typeof resourceCaseUse>;
export const resourceCaseUses = z.object({ items: z.array(resourceCaseUse) });
export const resourceClients = z.object({ items: z.array(z.object({ id, name: z.string() })) });

/** A signed link: it works without a session, for a short while. */
export const signedLink = z.object({ url: z.string(), expires_at: z.string() });
export type SignedLink = z.infer<typeof signedLink>;
/** A thumbnail's link, once the thumbnail is made (else `url` is null and the status says why). */
export const thumbnailLink = z.object({
  url: z.string().nullable(),
  expires_at: z.string().nullable(),
  thumbnail_status: ResourceThumbnailStatus,
});
export type ThumbnailLink = z.infer<typeof thumbnailLink>;
/** A file's description with its links: to show it (inline), to download it, and its thumbnail. */
export const resourceFileDetails = resourceFile.extend({
  resource_id: id,
  view: signedLink,
  download: signedLink,
  thumbnail: thumbnailLink,
});
export type ResourceFileDetails = z.infer<typeof resourceFileDetails>;

/** The resources attached to a case, in their order. */
export const caseResources = z.object({ items: z.array(resource) });
export type CaseResources = z.infer<typeof caseResources>;
export const setCaseResourcesBody = z.strictObject({
  resource_ids: z
    .array(id)
    .max(MAX_CASE_RESOURCES)
    .refine((ids) => new Set(ids).size === ids.length, 'A resource is named twice.'),
});

/** A resource as a participant sees it on their case: its file behind signed links. */
export const participantResource = z.object({
  id,
  name: z.string(),
  source_type: ResourceSourceType,
  details: z.string(),
  link: z.string().nullable(),
  file: resourceFile.nullable(),
  view: signedLink.nullable(),
  download: signedLink.nullable(),
  thumbnail: thumbnailLink.nullable(),
});
export type ParticipantResource = z.infer<typeof participantResource>;
export const participantResources = z.object({ items: z.array(participantResource) });

export const signedFileParams = z.object({ token: z.string().min(10).max(2000) });
export const resourceAttemptParams = z.object({ userSeasonRoundCaseId: id });
