import type { FastifyRequest } from 'fastify';
import type { ImportJob } from '@pss/contract';
import type { FileStorage } from './storage.js';
import { receiveUpload, withUpload, type StoredUpload } from './uploads.js';

/**
 * The handler of every import upload (the CAP roster, participants, new users, key
 * takeaways, answer tags, and the uploads to come): the file is streamed to storage,
 * `start` checks the caller and queues the import job, and a refused start leaves no file
 * behind. The route answers the job with 202 (its contract says so); the job's progress is
 * read from the feature's latest-import call.
 */
export function importUpload<R extends FastifyRequest>(
  storage: FileStorage,
  start: (request: R, upload: StoredUpload) => Promise<ImportJob>,
): (request: R) => Promise<ImportJob> {
  return async (request) => {
    const upload = await receiveUpload(request, storage);
    return withUpload(storage, upload, () => start(request, upload));
  };
}
