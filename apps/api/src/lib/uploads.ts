import type {} from '@fastify/multipart';
import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AppError, validationError } from './errors.js';
import type { FileStorage } from './storage.js';

export interface StoredUpload {
  fileName: string;
  /** Where the file was stored. */
  key: string;
  bytes: number;
}

/**
 * Streams the one file of a multipart upload (field `file`) to storage, never holding it
 * in memory. A missing file is a VALIDATION_ERROR; one over the size limit is
 * PAYLOAD_TOO_LARGE and nothing is kept.
 */
export async function receiveUpload(
  request: FastifyRequest,
  storage: FileStorage,
  options: { maxBytes?: number; prefix?: string } = {},
): Promise<StoredUpload> {
  if (!request.isMultipart()) {
    throw validationError([
      { field: 'body.file', message: 'Send the file as multipart/form-data in the field "file".' },
    ]);
  }
  const file = await request
    .file(options.maxBytes ? { limits: { fileSize: options.maxBytes } } : undefined)
    .catch((error: unknown) => {
      throw malformedOr(error);
    });
  if (!file || file.fieldname !== 'file') {
    throw validationError([{ field: 'body.file', message: 'A file is required in the field "file".' }]);
  }
  const key = `${options.prefix ?? 'uploads'}/${randomUUID()}`;
  try {
    const bytes = await storage.putStream(key, file.file);
    if (file.file.truncated) throw new AppError('PAYLOAD_TOO_LARGE');
    return { fileName: file.filename, key, bytes };
  } catch (error) {
    await storage.remove(key);
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('PAYLOAD_TOO_LARGE');
    throw malformedOr(error);
  }
}

/**
 * A multipart body the parser cannot read (no boundary, a part cut short, a bad header)
 * is the caller's mistake: VALIDATION_ERROR. Errors of the disk (ENOSPC and the like) and
 * our own stay what they are.
 */
function malformedOr(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new AppError('PAYLOAD_TOO_LARGE');
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return error;
  return validationError([{ field: 'body', message: 'The upload is not a well-formed multipart/form-data body.' }]);
}

/** Runs `use` with a stored upload, removing the file if `use` refuses it. */
export async function withUpload<T>(storage: FileStorage, upload: StoredUpload, use: () => Promise<T>): Promise<T> {
  try {
    return await use();
  } catch (error) {
    await storage.remove(upload.key);
    throw error;
  }
}
