import type { Readable } from 'node:stream';
import type { CaseDocument, RtfCaseFields } from '@pss/contract';
import type { Db } from '../../db/client.js';
import { dayIn, type Clock } from '../../lib/clock.js';
import { AppError, validationError } from '../../lib/errors.js';
import { imageTypeOf } from '../../lib/image-type.js';
import { sanitizeRichText } from '../../lib/rich-text.js';
import { caseFieldsFromRtf, isRtf } from '../../lib/rtf.js';
import type { FileStorage } from '../../lib/storage.js';
import type { StoredUpload } from '../../lib/uploads.js';
import type { CaseAccess, Caller } from './case-access.js';
import { createCasesRepository } from './cases.repository.js';

export interface CaseImage {
  stream: Readable;
  type: string;
}

/** Files of a case: the patient image (checked by content), and RTF documents read into fields. */
export function createCaseMediaService(deps: {
  db: Db;
  access: CaseAccess;
  storage: FileStorage;
  clock: Clock;
  /** The schedule's time zone (SCHEDULE_TIME_ZONE): "today" is a day there. */
  timeZone: string;
}) {
  const { access, storage } = deps;
  const cases = createCasesRepository(deps.db);

  function imageOf(row: { imageKey: string | null; imageType: string | null }): CaseImage {
    if (!row.imageKey || !row.imageType) throw new AppError('NOT_FOUND', { message: 'This case has no image.' });
    return { stream: storage.stream(row.imageKey), type: row.imageType };
  }

  return {
    async setImage(caller: Caller, id: string, upload: StoredUpload): Promise<CaseDocument> {
      const row = await access.requireDraft(caller, id);
      const head = (await storage.get(upload.key)).subarray(0, 16);
      const type = imageTypeOf(head);
      if (!type) {
        throw validationError([{ field: 'body.file', message: 'The patient image must be a JPEG or PNG file.' }]);
      }
      await cases.update(id, { imageKey: upload.key, imageType: type }, deps.clock.now());
      if (row.imageKey) await storage.remove(row.imageKey);
      return access.read(id);
    },

    async removeImage(caller: Caller, id: string): Promise<CaseDocument> {
      const row = await access.requireDraft(caller, id);
      await cases.update(id, { imageKey: null, imageType: null }, deps.clock.now());
      if (row.imageKey) await storage.remove(row.imageKey);
      return access.read(id);
    },

    async image(caller: Caller, id: string): Promise<CaseImage> {
      return imageOf(await access.requireCase(caller, id));
    },

    /**
     * The patient image of a case, with no access check: for the participants' side, which
     * has checked that the case is the caller's and has unlocked for them.
     */
    async imageOfCase(id: string): Promise<CaseImage> {
      const row = await cases.findById(id, dayIn(deps.timeZone, deps.clock.now()));
      if (!row) throw new AppError('CASE_NOT_FOUND');
      return imageOf(row);
    },

    /** Reads an RTF file into case text fields; the editor merges them into its unsaved form. */
    async readRtf(upload: StoredUpload): Promise<RtfCaseFields> {
      const bytes = await storage.get(upload.key);
      if (!isRtf(bytes)) {
        throw validationError([{ field: 'body.file', message: 'The file is not an RTF document.' }]);
      }
      const fields = caseFieldsFromRtf(bytes.toString('latin1'));
      const rich = (html: string | undefined) => (html === undefined ? undefined : sanitizeRichText(html));
      return {
        ...fields,
        reason_for_encounter: rich(fields.reason_for_encounter),
        references: rich(fields.references),
        test_results: rich(fields.test_results),
        explanation: rich(fields.explanation),
        details_sections: fields.details_sections.map((s) => ({ name: s.name, text: sanitizeRichText(s.text) })),
      };
    },
  };
}
export type CaseMediaService = ReturnType<typeof createCaseMediaService>;
