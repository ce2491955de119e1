import { randomUUID } from 'node:crypto';
import { isChoiceQuestion, type CaseDocument, type CaseForParticipant, type UpdateCaseBody } from '@pss/contract';
import type { CaseBody } from '../../db/schema/index.js';
import { sanitizeRichText } from '../../lib/rich-text.js';
import type { CaseInsert, CaseRow } from './cases.repository.js';

/**
 * Turning an editor's save into stored columns and back. Rich text is sanitised here, on
 * every save; sub-items keep the ids the editor gave them (so a question can name a grouper
 * created in the same save) and get new ones when missing or repeated.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function idKeeper() {
  const used = new Set<string>();
  return (candidate: string | undefined): string => {
    const id = candidate && UUID.test(candidate) && !used.has(candidate) ? candidate : randomUUID();
    used.add(id);
    return id;
  };
}

export function contentColumns(input: UpdateCaseBody): Omit<CaseInsert, 'name'> & { name: string } {
  const keep = idKeeper();
  const groupers = input.groupers.map((g) => ({ id: keep(g.id), name: g.name.trim() }));
  const grouperIds = new Set(groupers.map((g) => g.id));
  const body: CaseBody = {
    details_sections: input.details_sections.map((s) => ({
      id: keep(s.id),
      name: s.name.trim(),
      text: sanitizeRichText(s.text),
    })),
    groupers,
    questions: input.questions.map((q) => ({
      id: keep(q.id),
      grouper_id: q.grouper_id && grouperIds.has(q.grouper_id) ? q.grouper_id : null,
      type: q.type,
      text: q.text.trim(),
      text_before: sanitizeRichText(q.text_before),
      required: q.required,
      category_id: q.category_id,
      // A free-text question has no choices; a type-ahead's suggestions carry no marks.
      choices:
        q.type === 'TEXT'
          ? []
          : q.choices.map((c) => ({
              id: keep(c.id),
              text: c.text.trim(),
              marked_as: isChoiceQuestion(q.type) ? c.marked_as : null,
            })),
      allow_other: isChoiceQuestion(q.type) && q.allow_other,
      allow_none_of_below: isChoiceQuestion(q.type) && q.allow_none_of_below,
    })),
  };
  return {
    name: input.name.trim(),
    diseaseTypeId: input.disease_type_id,
    patientName: input.patient_name.trim(),
    patientAge: input.patient_age,
    ...(input.image_alt === undefined ? {} : { imageAlt: input.image_alt.trim() }),
    reasonForEncounter: sanitizeRichText(input.reason_for_encounter),
    seasonId: input.season_id,
    roundNumber: input.round_number,
    feedbackType: input.feedback_type,
    references: sanitizeRichText(input.references),
    testResults: sanitizeRichText(input.test_results),
    explanation: sanitizeRichText(input.explanation),
    body,
    questionCount: body.questions.length,
  };
}

/** A copy of a case's document with every sub-item given a new id (duplicates, module copies). */
export function renewIds(body: CaseBody): CaseBody {
  const grouperIds = new Map(body.groupers.map((g) => [g.id, randomUUID()]));
  return {
    details_sections: body.details_sections.map((s) => ({ ...s, id: randomUUID() })),
    groupers: body.groupers.map((g) => ({ ...g, id: grouperIds.get(g.id)! })),
    questions: body.questions.map((q) => ({
      ...q,
      id: randomUUID(),
      grouper_id: q.grouper_id ? (grouperIds.get(q.grouper_id) ?? null) : null,
      choices: q.choices.map((c) => ({ ...c, id: randomUUID() })),
    })),
  };
}

export function toCaseDocument(row: CaseRow): CaseDocument {
  return {
    id: row.id,
    project_id: row.projectId,
    client_id: row.clientId,
    origin: row.origin,
    status: row.effectiveStatus,
    name: row.name,
    disease_type_id: row.diseaseTypeId,
    disease_type_name: row.diseaseTypeName,
    patient_name: row.patientName,
    patient_age: row.patientAge,
    has_image: Boolean(row.imageKey),
    image_alt: row.imageAlt,
    reason_for_encounter: row.reasonForEncounter,
    season_id: row.seasonId,
    season_name: row.seasonName,
    round_number: row.roundNumber,
    feedback_type: row.feedbackType,
    references: row.references,
    test_results: row.testResults,
    explanation: row.explanation,
    details_sections: row.body.details_sections,
    groupers: row.body.groupers,
    questions: row.body.questions,
    source_case_id: row.sourceCaseId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A case as a participant sees it: no marks on its choices. */
export function participantView(row: CaseRow): CaseForParticipant {
  return {
    id: row.id,
    name: row.name,
    patient_name: row.patientName,
    patient_age: row.patientAge,
    has_image: Boolean(row.imageKey),
    image_alt: row.imageAlt,
    reason_for_encounter: row.reasonForEncounter,
    details_sections: row.body.details_sections,
    groupers: row.body.groupers,
    questions: row.body.questions.map((q) => ({
      id: q.id,
      grouper_id: q.grouper_id,
      type: q.type,
      text: q.text,
      text_before: q.text_before,
      required: q.required,
      choices: q.choices.map((c) => ({ id: c.id, text: c.text })),
      allow_other: q.allow_other,
      allow_none_of_below: q.allow_none_of_below,
    })),
  };
}
