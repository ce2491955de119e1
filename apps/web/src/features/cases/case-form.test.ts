import { describe, expect, it } from 'vitest';
import type { CaseDocument } from '@pss/contract';
import { changeType, mergeRtf, newQuestion, placeInSeason, removeGrouper, toForm, type CaseForm } from './case-form';

const grouperA = '00000000-0000-4000-8000-00000000000a';
const grouperB = '00000000-0000-4000-8000-00000000000b';

const chestPain: CaseDocument = {
  id: '00000000-0000-4000-8000-000000000001',
  project_id: null,
  client_id: null,
  origin: 'CUSTOM',
  status: 'DRAFT',
  name: 'Chest pain',
  disease_type_id: null,
  disease_type_name: null,
  patient_name: 'Ann',
  patient_age: 54,
  has_image: false,
  image_alt: '',
  reason_for_encounter: '<p>Pain</p>',
  season_id: 's1',
  season_name: null,
  round_number: 2,
  feedback_type: null,
  references: '',
  test_results: '',
  explanation: '',
  details_sections: [{ id: 'd1', name: 'History', text: '<p>None</p>' }],
  groupers: [],
  questions: [],
  source_case_id: null,
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-01T00:00:00.000Z',
};

function form(overrides: Partial<CaseForm> = {}): CaseForm {
  return {
    ...toForm(chestPain),
    ...overrides,
  };
}

describe('merging an RTF file into the form', () => {
  it('replaces the fields the file fills, keeps the others, and adds its sections after the existing ones', () => {
    const before = form();
    const { form: after, filled } = mergeRtf(before, {
      name: 'Dyspnoea',
      patient_name: '',
      test_results: '<p>Troponin</p>',
      patient_age: 61,
      details_sections: [{ name: 'Exam', text: '<p>Clear</p>' }],
    });
    expect(after).toMatchObject({
      name: 'Dyspnoea',
      patient_name: 'Ann',
      reason_for_encounter: '<p>Pain</p>',
      test_results: '<p>Troponin</p>',
      patient_age: 61,
    });
    expect(after.details_sections.map((s) => s.name)).toEqual(['History', 'Exam']);
    expect(after.details_sections[1]!.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(filled).toBe(4);
    expect(before.name).toBe('Chest pain');
  });

  it('fills nothing from a file without known fields', () => {
    const before = form();
    expect(mergeRtf(before, { details_sections: [] })).toEqual({ form: before, filled: 0 });
  });
});

describe("changing a question's type", () => {
  const choices = [
    { id: 'c1', text: 'ECG', marked_as: 'NECESSARY' as const },
    { id: 'c2', text: 'X-ray', marked_as: 'UNNECESSARY' as const },
  ];
  const question = { ...newQuestion('MULTI_MANY', null), choices, allow_other: true, allow_none_of_below: true };

  it('keeps the choices and their marks between choice types', () => {
    expect(changeType(question, 'DROPDOWN')).toMatchObject({ type: 'DROPDOWN', choices, allow_other: true });
  });

  it('keeps the choices as suggestions, unmarked, for type-ahead, without "other" or "none of the below"', () => {
    const changed = changeType(question, 'TYPE_AHEAD');
    expect(changed.choices.map((c) => [c.text, c.marked_as])).toEqual([
      ['ECG', null],
      ['X-ray', null],
    ]);
    expect(changed).toMatchObject({ allow_other: false, allow_none_of_below: false });
  });

  it('drops the choices for free text, and starts empty ones for a choice type that had none', () => {
    const text = changeType(question, 'TEXT');
    expect(text.choices).toEqual([]);
    expect(changeType(text, 'MULTI_ONE').choices).toHaveLength(2);
    expect(changeType(text, 'TYPE_AHEAD').choices).toHaveLength(1);
  });
});

describe('removing a grouper', () => {
  it('removes it and leaves its questions ungrouped, the others as they were', () => {
    const q1 = { ...newQuestion('TEXT', null), grouper_id: grouperA };
    const q2 = { ...newQuestion('TEXT', null), grouper_id: grouperB };
    const q3 = newQuestion('TEXT', null);
    const after = removeGrouper(
      form({
        groupers: [
          { id: grouperA, name: 'History' },
          { id: grouperB, name: 'Exam' },
        ],
        questions: [q1, q2, q3],
      }),
      0,
    );
    expect(after.groupers).toEqual([{ id: grouperB, name: 'Exam' }]);
    expect(after.questions.map((q) => q.grouper_id)).toEqual([null, grouperB, null]);
  });
});

describe('placing a case in a season', () => {
  it('keeps the round for the same season and clears it for another', () => {
    expect(placeInSeason(form(), 's1')).toMatchObject({ season_id: 's1', round_number: 2 });
    expect(placeInSeason(form(), 's2')).toMatchObject({ season_id: 's2', round_number: null });
    expect(placeInSeason(form(), null)).toMatchObject({ season_id: null, round_number: null });
  });
});
