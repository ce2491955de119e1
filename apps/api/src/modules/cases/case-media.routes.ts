import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { caseDocument, idParams, MAX_CASE_IMAGE_BYTES, MAX_CASE_RTF_BYTES, rtfCaseFields } from '@pss/contract';
import { caller } from '../../lib/access-control.js';
import type { FileStorage } from '../../lib/storage.js';
import { receiveUpload, withUpload } from '../../lib/uploads.js';
import type { CaseMediaService } from './case-media.service.js';

const tags = ['Cases'];

/** A case's files: the patient image, and RTF documents read into fields. */
export function registerCaseMediaRoutes(app: FastifyInstance, service: CaseMediaService, storage: FileStorage): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = { access: 'admin' as const };

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
}
