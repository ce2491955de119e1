import type {} from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError, validationError } from './errors.js';

/**
 * Reads the one file of a multipart upload (field `file`). A missing file is a
 * VALIDATION_ERROR; one over the size limit is PAYLOAD_TOO_LARGE.
 */
export async function readUploadedFile(request: FastifyRequest): Promise<{ fileName: string; content: Buffer }> {
  if (!request.isMultipart()) {
    throw validationError([
      { field: 'body.file', message: 'Send the file as multipart/form-data in the field "file".' },
    ]);
  }
  const file = await request.file();
  if (!file || file.fieldname !== 'file') {
    throw validationError([{ field: 'body.file', message: 'A file is required in the field "file".' }]);
  }
  const content = await file.toBuffer().catch((error: { code?: string }) => {
    if (error.code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('PAYLOAD_TOO_LARGE');
    throw error;
  });
  return { fileName: file.filename, content };
}
