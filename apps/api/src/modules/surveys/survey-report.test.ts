import { describe, expect, it } from 'vitest';
import type { SurveyTemplate } from '@pss/contract';
import { expectError } from '../../../test/kit.js';
import { attachmentName, csvRows, xlsxRows } from '../../../test/report-files.js';
import { surveySetup } from '../../../test/survey-calls.js';

const { answer, attached, call, deleteQuery, f, requiredAnswers, seasonProject, template, work } = surveySetup();

const questionsOf = (t: SurveyTemplate) => t.pages.flatMap((p) => p.components).filter((c) => c.kind === 'QUESTION');

describe('the project-survey-response report', () => {
  it('has a row per participant and survey and a column per question, in CSV and XLSX; edits lose no answer', async () => {
    const { p, docs, participant } = await seasonProject(f.clientA.id, ['Report case']);
    const review = await template('Case review', 'REVIEW');
    await attached(p.id, { review_template_id: review.id });
    await work.complete(participant, docs[0]!);
    const attemptId = await work.attemptOf(participant, 'Report case');
    const [yesNo, topics, where, words, specialty] = questionsOf(review);
    const answered = await answer(review.id, attemptId, participant, {
      answers: [
        { component_id: yesNo!.id, choice_ids: [yesNo!.choices[1]!.id] },
        { component_id: topics!.id, choice_ids: [topics!.choices[0]!.id], text: 'Renal' },
        { component_id: where!.id, choice_ids: [where!.choices[1]!.id] },
        { component_id: words!.id, text: '=SUM(A1)' },
        { component_id: specialty!.id, text: 'Cardiology' },
      ],
    });
    expect(answered.statusCode, answered.body).toBe(200);
    // Someone who left half-way is reported too, marked incomplete.
    const halfway = await work.enrol(p, f.clientA.id, {}, { firstName: 'Hal', lastName: 'Zed' });
    await work.complete(halfway, docs[0]!);
    const theirs = await work.attemptOf(halfway, 'Report case');
    await answer(review.id, theirs, halfway, {
      answers: [{ component_id: topics!.id, none_of_below: true }],
      complete: false,
    });

    // The project's choice changes and the template is duplicated: the answers stay.
    const copy = (await call('POST', `/survey-templates/${review.id}/duplicate`)).json<SurveyTemplate>();
    await attached(p.id, { review_template_id: copy.id });
    expectError(
      await call('DELETE', `/survey-templates?${deleteQuery({ ids: [review.id] })}`),
      409,
      'SURVEY_ATTACHED_DELETE_FORBIDDEN',
    );

    const url = `/reports/${p.id}/project-survey-response/REVIEW`;
    const csv = await call('GET', url, { headers: f.asAdminA });
    expect(attachmentName(csv)).toMatch(/-survey-responses-review-2026-03-02\.csv$/);
    const rows = csvRows(csv);
    expect(rows[0]).toEqual([
      'Last name',
      'First name',
      'Email',
      'User ID',
      'Season',
      'Round',
      'Case',
      'Survey',
      'Complete',
      'Answered (UTC)',
      'Is this your first simulation?',
      'Which topics interest you?',
      'Where do you practise?',
      'What do you expect?',
      'Your specialty',
    ]);
    expect(rows).toHaveLength(3);
    const byName = new Map(rows.slice(1).map((r) => [r[1], r]));
    const mine = byName.get(participant.firstName)!;
    expect(mine.slice(4, 9)).toEqual(['Spring 2026', '1', 'Report case', 'Case review', 'Yes']);
    expect(mine[9]).toBe('2026-03-02 09:00:00');
    // A typed formula is text, never run.
    expect(mine.slice(10)).toEqual(['No', 'Cardiology; Other: Renal', 'Clinic', "'=SUM(A1)", 'Cardiology']);
    expect(byName.get('Hal')!.slice(8)).toEqual(['No', '2026-03-02 09:00:00', '', 'None of the below', '', '', '']);

    const xlsx = await call('GET', `${url}?format=xlsx`, { headers: f.asAdminA });
    expect(await xlsxRows(xlsx)).toEqual(rows);

    // Nothing of another type, and nothing for another client's administrator.
    expect(csvRows(await call('GET', `/reports/${p.id}/project-survey-response/END`))).toHaveLength(1);
    expectError(await call('GET', url, { headers: f.asAdminB }), 404, 'PROJECT_NOT_FOUND');
    expectError(await work.call('GET', url, participant), 403, 'FORBIDDEN');
    expect(requiredAnswers(review)).toHaveLength(2);
  });
});
