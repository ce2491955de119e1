import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  bulkCaseResult,
  caseCounts,
  caseDeleteQuery,
  caseDocument,
  caseFeedbackPage,
  caseFeedbackQuery,
  caseForParticipant,
  caseListQuery,
  casePreview,
  casePreviewListQuery,
  casePreviewPage,
  caseStatusBody,
  caseStatusReport,
  caseSummaryPage,
  createCaseBody,
  createPreviewBody,
  duplicateCaseBody,
  idParams,
  MAX_CASE_IMAGE_BYTES,
  MAX_CASE_RTF_BYTES,
  moveCasesBody,
  moveToModuleBody,
  rtfCaseFields,
  updateCaseBody,
} from '@pss/contract';
import { caller } from '../../lib/access-control.js';
import type { FileStorage } from '../../lib/storage.js';
import { receiveUpload, withUpload } from '../../lib/uploads.js';
import type { CasesService } from './cases.service.js';

const tags = ['Cases'];

export function registerCasesRoutes(app: FastifyInstance, service: CasesService, storage: FileStorage): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = { access: 'admin' as const };

  r.get(
    '/projects/:id/cases',
    {
      config: admin,
      schema: {
        tags,
        summary: 'A project’s cases (paged)',
        description:
          'Search: case or patient name. Sortable: name, patient_name, status, updated_at, created_at. ' +
          'Filter: `{"status":"DRAFT"|"PUBLISHED"|"ACTIVE"}` (ACTIVE: published and placed in a round running today).',
        params: idParams,
        querystring: caseListQuery,
        response: { 200: caseSummaryPage },
      },
    },
    async (request) => service.list(caller(request), { projectId: request.params.id }, request.query),
  );

  r.post(
    '/cases',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Create a draft case in a project',
        description:
          'The rest of the case is filled in with `PUT /cases/{id}`. The disease type must be the project’s.',
        body: createCaseBody,
        response: { 201: caseDocument },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await service.create(
            caller(request),
            request.body.project_id ? { projectId: request.body.project_id } : { moduleId: request.body.module_id! },
            request.body.name,
            request.body.disease_type_id ?? null,
          ),
        ),
  );

  r.post(
    '/cases/rtf',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Read an RTF file into case text fields (multipart field `file`)',
        description:
          'Nothing is saved: the answer holds the fields found, for the editor to merge into its form. Paragraphs ' +
          '`Label: text` start a field — Case name, Patient name, Patient age, Reason for encounter, References, ' +
          'Test results, Explanation; any other label starts a details section. Checked by content; at most 5 MB.',
        consumes: ['multipart/form-data'],
        response: { 200: rtfCaseFields },
      },
    },
    async (request) => {
      const upload = await receiveUpload(request, storage, { maxBytes: MAX_CASE_RTF_BYTES });
      try {
        return await service.readRtf(upload);
      } finally {
        await storage.remove(upload.key);
      }
    },
  );

  r.get(
    '/cases/:id',
    { config: admin, schema: { tags, summary: 'A case, whole', params: idParams, response: { 200: caseDocument } } },
    async (request) => service.get(caller(request), request.params.id),
  );

  r.put(
    '/cases/:id',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Save a draft case, whole',
        description:
          'Published and active cases are read-only (CHANGES_FORBIDDEN). Rich text is sanitised. Sub-items keep the ' +
          'ids sent (new ones may carry ids made by the editor) and get new ids when missing. A draft may be ' +
          'incomplete; `POST /cases/{id}/status` checks it whole before publishing.',
        params: idParams,
        body: updateCaseBody,
        response: { 200: caseDocument },
      },
    },
    async (request) => service.update(caller(request), request.params.id, request.body),
  );

  r.delete(
    '/cases/:id',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Delete a case, or a selection of its project’s cases',
        description:
          '`filter` (optional) is a JSON selection: `{"ids":[…]}` or `{"all":true,"except":[…],"search":…,' +
          '"filter":{"status":…}}`, within the project of the case in the path (else CASES_FROM_WRONG_PROJECT). ' +
          'All or nothing: cases associated with participants (CASE_HAS_PARTICIPANTS_DELETE_FORBIDDEN) or active ' +
          '(CHANGES_FORBIDDEN) stop the whole delete.',
        params: idParams,
        querystring: caseDeleteQuery,
        response: { 200: bulkCaseResult },
      },
    },
    async (request) => service.remove(caller(request), request.params.id, request.query.filter),
  );

  r.post(
    '/cases/:id/remove-project',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Take a case out of its project (as a delete: the same rules apply)',
        params: idParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await service.removeFromProject(caller(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  r.get(
    '/cases/:id/status',
    {
      config: admin,
      schema: {
        tags,
        summary: 'A case’s status and everything that stops it being published or previewed',
        params: idParams,
        response: { 200: caseStatusReport },
      },
    },
    async (request) => service.status(caller(request), request.params.id),
  );

  r.post(
    '/cases/:id/status',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Publish a draft, or take a published case back to draft',
        description:
          'Publishing checks the whole case: CASE_INVALID_FOR_PUBLISH lists each problem with its field. An active ' +
          'case, or one any participant has (an attempt exists, started or not), cannot go back to draft ' +
          '(CHANGES_FORBIDDEN); the rule is checked in the write itself.',
        params: idParams,
        body: caseStatusBody,
        response: { 200: caseDocument },
      },
    },
    async (request) => service.setStatus(caller(request), request.params.id, request.body.status),
  );

  r.get(
    '/cases/:id/count',
    {
      config: admin,
      schema: {
        tags,
        summary: 'What hangs on a case: participants of its round, previews, questions',
        params: idParams,
        response: { 200: caseCounts },
      },
    },
    async (request) => service.counts(caller(request), request.params.id),
  );

  r.post(
    '/cases/:id/move',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Move a case (and optionally a selection of its project’s cases) to another project of the client',
        description:
          'Refused for an active case (CASE_IS_ACTIVE), one in a current or future season ' +
          '(CASE_ASSIGNED_TO_CURRENT_OR_FUTURE_SEASON), cases from different projects ' +
          '(CASES_FROM_DIFFERENT_PROJECTS), and where the target lacks the case’s disease type (WRONG_DISEASE_TYPE) ' +
          'or question categories (PROJECT_MISSING_*). Moved cases leave their season round.',
        params: idParams,
        body: moveCasesBody,
        response: { 200: bulkCaseResult },
      },
    },
    async (request) => service.move(caller(request), request.params.id, request.body.project_id, request.body.cases),
  );

  r.post(
    '/cases/:id/move-to-module',
    {
      config: { access: 'superadmin' },
      schema: {
        tags,
        summary: 'Move a project’s case into a module library',
        description:
          'The case becomes a module case (origin MODULE_LIBRARY) and leaves its project and season. Refused as a ' +
          'move is (CASE_IS_ACTIVE, CASE_ASSIGNED_TO_CURRENT_OR_FUTURE_SEASON), for a case with participants, and ' +
          'where the module lacks the case’s disease type or question categories.',
        params: idParams,
        body: moveToModuleBody,
        response: { 200: caseDocument },
      },
    },
    async (request) => service.moveToModule(caller(request), request.params.id, request.body.module_id),
  );

  r.post(
    '/cases/:id/duplicate',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Copy a case as a new draft that remembers its original',
        params: idParams,
        body: duplicateCaseBody,
        response: { 201: caseDocument },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.duplicate(caller(request), request.params.id, request.body?.name)),
  );

  r.post(
    '/cases/:id/duplicate-detach',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Copy a case as a new, independent custom draft (no link to where it came from)',
        params: idParams,
        body: duplicateCaseBody,
        response: { 201: caseDocument },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.duplicateDetached(caller(request), request.params.id, request.body?.name)),
  );

  r.post(
    '/cases/:id/image',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Set the patient image of a draft (multipart field `file`: JPEG or PNG, at most 5 MB)',
        description: 'The type is read from the file’s content, not its name.',
        consumes: ['multipart/form-data'],
        params: idParams,
        response: { 200: caseDocument },
      },
    },
    async (request) => {
      const upload = await receiveUpload(request, storage, { maxBytes: MAX_CASE_IMAGE_BYTES, prefix: 'case-images' });
      return withUpload(storage, upload, () => service.setImage(caller(request), request.params.id, upload));
    },
  );

  r.delete(
    '/cases/:id/image',
    {
      config: admin,
      schema: { tags, summary: 'Remove a draft’s patient image', params: idParams, response: { 200: caseDocument } },
    },
    async (request) => service.removeImage(caller(request), request.params.id),
  );

  r.get(
    '/cases/:id/image',
    { config: admin, schema: { tags, summary: 'The patient image', params: idParams } },
    async (request, reply) => {
      const image = await service.image(caller(request), request.params.id);
      return reply
        .header('content-type', image.type)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(image.stream);
    },
  );

  r.get(
    '/cases/:id/preview',
    {
      config: admin,
      schema: {
        tags,
        summary: 'The case as a participant sees it (no answer marks)',
        description: 'The case must be valid: CASE_INVALID_FOR_PREVIEW lists what is wrong.',
        params: idParams,
        response: { 200: caseForParticipant },
      },
    },
    async (request) => service.forParticipant(caller(request), request.params.id),
  );

  r.get(
    '/cases/:id/feedback',
    {
      config: admin,
      schema: {
        tags,
        summary: 'The answer key: per scored question, its necessary, appropriate and unnecessary choices (paged)',
        description: 'Sortable: position. Filter: `{"type":"MULTI_ONE"}`.',
        params: idParams,
        querystring: caseFeedbackQuery,
        response: { 200: caseFeedbackPage },
      },
    },
    async (request) => service.feedback(caller(request), request.params.id, request.query),
  );

  r.get(
    '/cases/:id/previews',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Previews taken of a case (paged)',
        description: 'Search: the taker’s name or email. Sortable: completed_at, score, name. Filter: `{"mine":true}`.',
        params: idParams,
        querystring: casePreviewListQuery,
        response: { 200: casePreviewPage },
      },
    },
    async (request) => service.listPreviews(caller(request), request.params.id, request.query),
  );

  r.post(
    '/previews',
    {
      config: admin,
      schema: {
        tags: ['Previews'],
        summary: 'Take a case as a participant would: answers are checked, scored and stored',
        description:
          'The case must be valid (CASE_INVALID_FOR_PREVIEW). Every required question needs an answer; each missing ' +
          'one is listed as a field `questions.N`. The answer carries the score and the feedback.',
        body: createPreviewBody,
        response: { 201: casePreview },
      },
    },
    async (request, reply) => reply.status(201).send(await service.createPreview(caller(request), request.body)),
  );

  r.get(
    '/previews/:id',
    {
      config: admin,
      schema: {
        tags: ['Previews'],
        summary: 'A preview: answers, score, feedback',
        params: idParams,
        response: { 200: casePreview },
      },
    },
    async (request) => service.getPreview(caller(request), request.params.id),
  );

  r.delete(
    '/previews/:id',
    {
      config: admin,
      schema: {
        tags: ['Previews'],
        summary: 'Delete a preview (yours; a superadmin may delete any: else PREVIEW_DELETE_FORBIDDEN)',
        params: idParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await service.deletePreview(caller(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
}
