import type { FastifyInstance } from 'fastify';
import { MAX_CASE_IMAGE_BYTES, MAX_CASE_RTF_BYTES, caseRoutes } from '@pss/contract';
import { contractRoutes } from '../../lib/contract-routes.js';
import { caller } from '../../lib/access-control.js';
import type { FileStorage } from '../../lib/storage.js';
import { receiveUpload, withUpload } from '../../lib/uploads.js';
import type { CaseMediaService } from './case-media.service.js';

const tags = ['Cases'];

/** A case's files: the patient image, and RTF documents read into fields. */
export function registerCaseMediaRoutes(app: FastifyInstance, service: CaseMediaService, storage: FileStorage): void {
  const implement = contractRoutes(app);

  implement(
    caseRoutes.readRtf,
    {
      tags,
      summary: 'Read an RTF file into case text fields (multipart field `file`)',
      description:
        'Nothing is saved: the answer holds the fields found, for the editor to merge into its form. Paragraphs ' +
        '`Label: text` start a field — Case name, Patient name, Patient age, Reason for encounter, References, ' +
        'Test results, Explanation; any other label starts a details section. Checked by content; at most 5 MB.',
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

  implement(
    caseRoutes.setImage,
    {
      tags,
      summary: 'Set the patient image of a draft (multipart field `file`: JPEG or PNG, at most 5 MB)',
      description: 'The type is read from the file’s content, not its name.',
    },
    async (request) => {
      const upload = await receiveUpload(request, storage, { maxBytes: MAX_CASE_IMAGE_BYTES, prefix: 'case-images' });
      return withUpload(storage, upload, () => service.setImage(caller(request), request.params.id, upload));
    },
  );

  implement(caseRoutes.removeImage, { tags, summary: 'Remove a draft’s patient image' }, async (request) =>
    service.removeImage(caller(request), request.params.id),
  );

  implement(caseRoutes.image, { tags, summary: 'The patient image' }, async (request, reply) => {
    const image = await service.image(caller(request), request.params.id);
    return reply
      .header('content-type', image.type)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, no-store')
      .send(image.stream);
  });
}
