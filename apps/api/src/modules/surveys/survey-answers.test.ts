import { describe, expect, it } from 'vitest';
import type { ProjectSurvey, SurveyTemplate } from '@pss/contract';
import { expectError, fieldsOf } from '../../../test/kit.js';
import { surveySetup } from '../../../test/survey-calls.js';

const { answer, attach, attached, call, due, f, requiredAnswers, returningFrom2025, seasonProject, template, work } =
  surveySetup();

const questionsOf = (t: SurveyTemplate) => t.pages.flatMap((p) => p.components).filter((c) => c.kind === 'QUESTION');

describe('a project’s surveys', () => {
  it('chooses one template per type, each nullable, a field left out staying as it is', async () => {
    const { p } = await seasonProject();
    const before = await call('GET', `/projects/${p.id}/survey`, { headers: f.asAdminA });
    expect(before.json<ProjectSurvey>()).toEqual({
      project_id: p.id,
      start_new_template_id: null,
      start_returning_template_id: null,
      review_template_id: null,
      end_template_id: null,
      templates: [],
    });
    const start = await template('Project start', 'START_NEW');
    const review = await template('Project review', 'REVIEW');
    const saved = await attach(p.id, { start_new_template_id: start.id, review_template_id: review.id }, f.asAdminA);
    expect(saved.statusCode).toBe(200);
    expect(saved.json<ProjectSurvey>()).toMatchObject({
      start_new_template_id: start.id,
      review_template_id: review.id,
      end_template_id: null,
    });
    const cleared = await attached(p.id, { review_template_id: null });
    expect(cleared).toMatchObject({ start_new_template_id: start.id, review_template_id: null });
    expect(cleared.templates).toEqual([{ id: start.id, name: 'Project start', type: 'START_NEW' }]);
  });

  it('refuses a template of the wrong type (INCORRECT_TEMPLATE_TYPE), an unknown one, and bad bodies', async () => {
    const { p } = await seasonProject();
    const review = await template('Wrong type', 'REVIEW');
    const wrong = await attach(p.id, { end_template_id: review.id });
    expectError(wrong, 400, 'INCORRECT_TEMPLATE_TYPE');
    expect(fieldsOf(wrong)).toEqual(['body.end_template_id']);
    expectError(await attach(p.id, { end_template_id: '00000000-0000-4000-8000-000000000000' }), 404, 'NOT_FOUND');
    expectError(await attach(p.id, { end_template_id: 'nope' }), 400, 'VALIDATION_ERROR');
    expectError(await attach(p.id, { middle_template_id: null }), 400, 'VALIDATION_ERROR');
    expect((await call('GET', `/projects/${p.id}/survey`)).json<ProjectSurvey>().end_template_id).toBeNull();
  });

  it('is another client’s administrator’s "project not found", and no participant’s business', async () => {
    const { p, participant } = await seasonProject();
    expectError(await call('GET', `/projects/${p.id}/survey`, { headers: f.asAdminB }), 404, 'PROJECT_NOT_FOUND');
    expectError(await attach(p.id, { end_template_id: null }, f.asAdminB), 404, 'PROJECT_NOT_FOUND');
    expectError(await work.call('GET', `/projects/${p.id}/survey`, participant), 403, 'FORBIDDEN');
  });
});

describe('participants answering surveys', () => {
  it('asks a newcomer the START_NEW survey before the first case, and a returning participant START_RETURNING', async () => {
    const { p, participant, attemptId } = await seasonProject();
    const start = await template('Newcomers', 'START_NEW');
    const again = await template('Returners', 'START_RETURNING');
    await attached(p.id, { start_new_template_id: start.id, start_returning_template_id: again.id });

    const newcomer = await due(participant, attemptId);
    expect(newcomer.start).toMatchObject({ template_id: start.id, type: 'START_NEW', answers: [], profile: null });
    expect(newcomer.review).toBeNull();
    expect(newcomer.end).toBeNull();
    // The returning survey is not theirs.
    expectError(
      await answer(again.id, attemptId, participant, { answers: requiredAnswers(again) }),
      400,
      'INCORRECT_TEMPLATE_TYPE',
    );

    const returning = await work.enrol(p, f.clientA.id);
    await returningFrom2025(returning);
    const theirs = await work.attemptOf(returning, 'Round one case');
    const asked = await due(returning, theirs);
    expect(asked.start).toMatchObject({ template_id: again.id, type: 'START_RETURNING' });
    // Its info review shows their own details.
    expect(asked.start!.profile).toMatchObject({ user_id: returning.id, first_name: returning.firstName });
  });

  it('keeps answers so far, checks them against the template, and records the survey once', async () => {
    const { p, participant, attemptId } = await seasonProject();
    const start = await template('Checked answers', 'START_NEW');
    const other = await template('Another template', 'START_NEW');
    await attached(p.id, { start_new_template_id: start.id });
    const [yesNo, topics, where, expect_] = questionsOf(start);

    // Half-way: kept, and given back when the participant comes back.
    const partial = await answer(start.id, attemptId, participant, {
      answers: [{ component_id: topics!.id, choice_ids: [topics!.choices[1]!.id], text: 'Renal' }],
      complete: false,
    });
    expect(partial.json()).toEqual({ complete: false });
    expect((await due(participant, attemptId)).start!.answers).toEqual([
      { component_id: topics!.id, choice_ids: [topics!.choices[1]!.id], text: 'Renal', none_of_below: false },
    ]);

    // A missing required answer names its question.
    const missing = await answer(start.id, attemptId, participant, { answers: [] });
    expectError(missing, 400, 'VALIDATION_ERROR');
    expect(fieldsOf(missing)).toEqual([`components.${yesNo!.id}`, `components.${where!.id}`]);
    // A choice not in the question, two for a single answer, a component of another template, text where none goes.
    const bad = await answer(start.id, attemptId, participant, {
      answers: [
        { component_id: yesNo!.id, choice_ids: [where!.choices[0]!.id] },
        { component_id: where!.id, choice_ids: where!.choices.map((c) => c.id) },
        { component_id: questionsOf(other)[0]!.id, choice_ids: [] },
        { component_id: expect_!.id, choice_ids: [yesNo!.choices[0]!.id] },
      ],
      complete: false,
    });
    expectError(bad, 400, 'VALIDATION_ERROR');
    expect(fieldsOf(bad)).toEqual([
      'body.answers.0.choice_ids',
      'body.answers.1.choice_ids',
      'body.answers.2.component_id',
      'body.answers.3.choice_ids',
    ]);
    expectError(await answer(start.id, attemptId, participant, { answers: 'none' }), 400, 'VALIDATION_ERROR');

    const done = await answer(start.id, attemptId, participant, {
      answers: [...requiredAnswers(start), { component_id: expect_!.id, text: 'To learn' }],
    });
    expect(done.json()).toEqual({ complete: true });
    expect((await due(participant, attemptId)).start).toBeNull();
    expectError(
      await answer(start.id, attemptId, participant, { answers: requiredAnswers(start) }),
      403,
      'CHANGES_FORBIDDEN',
    );
    // A template the project does not use.
    expectError(await answer(other.id, attemptId, participant, { answers: [] }), 404, 'NOT_FOUND');
  });

  it('asks the REVIEW survey after a case’s feedback and the END survey after the season’s last case', async () => {
    const { p, docs, participant } = await seasonProject(f.clientA.id, ['First case', 'Second case']);
    const review = await template('After each case', 'REVIEW');
    const end = await template('End of season', 'END');
    await attached(p.id, { review_template_id: review.id, end_template_id: end.id });
    const first = await work.attemptOf(participant, 'First case');

    expect((await due(participant, first)).review).toBeNull();
    expectError(
      await answer(review.id, first, participant, { answers: requiredAnswers(review) }),
      409,
      'CASES_NOT_COMPLETED',
    );
    await work.complete(participant, docs[0]!);
    const afterFirst = await due(participant, first);
    expect(afterFirst.review).toMatchObject({ template_id: review.id });
    expect(afterFirst.end).toBeNull();
    expect((await work.call('GET', `/users/${first}/endSurvey/${p.id}`, participant)).json()).toEqual({
      due: false,
      survey: null,
    });
    expectError(
      await answer(end.id, first, participant, { answers: requiredAnswers(end) }),
      409,
      'CASES_NOT_COMPLETED',
    );
    expect((await answer(review.id, first, participant, { answers: requiredAnswers(review) })).statusCode).toBe(200);
    expect((await due(participant, first)).review).toBeNull();

    await work.complete(participant, docs[1]!);
    const second = await work.attemptOf(participant, 'Second case');
    const endDue = (await work.call('GET', `/users/${second}/endSurvey/${p.id}`, participant)).json<{
      due: boolean;
      survey: { template_id: string } | null;
    }>();
    expect(endDue).toMatchObject({ due: true, survey: { template_id: end.id } });
    expect((await answer(end.id, second, participant, { answers: requiredAnswers(end) })).statusCode).toBe(200);
    expect((await work.call('GET', `/users/${second}/endSurvey/${p.id}`, participant)).json()).toMatchObject({
      due: false,
    });
    // Another project's id in the path is not this case's.
    const elsewhere = await seasonProject();
    expectError(await work.call('GET', `/users/${second}/endSurvey/${elsewhere.p.id}`, participant), 404, 'NOT_FOUND');
  });

  it('never lets a participant reach another participant’s case, nor staff answer', async () => {
    const { p, participant, attemptId } = await seasonProject();
    const start = await template('Own cases only', 'START_NEW');
    await attached(p.id, { start_new_template_id: start.id });
    const someoneElse = await work.enrol(p, f.clientA.id);
    expectError(await work.call('GET', `/users/${attemptId}/surveys`, someoneElse), 404, 'NOT_FOUND');
    expectError(await work.call('GET', `/users/${attemptId}/endSurvey/${p.id}`, someoneElse), 404, 'NOT_FOUND');
    expectError(await answer(start.id, attemptId, someoneElse, { answers: requiredAnswers(start) }), 404, 'NOT_FOUND');
    expectError(
      await call('POST', `/survey-templates/${start.id}/${attemptId}/answer`, {
        headers: f.asAdminA,
        payload: { answers: [] },
      }),
      403,
      'FORBIDDEN',
    );
    expect((await due(participant, attemptId)).start!.answers).toEqual([]);
  });

  it('lets a participant correct their own display name and mobile number, nobody else’s', async () => {
    const { p, participant } = await seasonProject();
    const other = await work.enrol(p, f.clientA.id);
    expect(
      (await work.call('PUT', `/users/${participant.id}/display-name`, participant, { display_name: 'Dr. Ann' }))
        .statusCode,
    ).toBe(204);
    expect(
      (await work.call('PUT', `/users/${participant.id}/mobile-number`, participant, { mobile_number: '+1 555 0101' }))
        .statusCode,
    ).toBe(204);
    const details = (await call('GET', `/users/${participant.id}`)).json<{
      display_name: string;
      mobile_number: string;
    }>();
    expect(details).toMatchObject({ display_name: 'Dr. Ann', mobile_number: '+1 555 0101' });
    expectError(
      await work.call('PUT', `/users/${other.id}/display-name`, participant, { display_name: 'Hijack' }),
      404,
      'USER_NOT_FOUND',
    );
    expectError(
      await work.call('PUT', `/users/${participant.id}/mobile-number`, participant, { mobile_number: 12 }),
      400,
      'VALIDATION_ERROR',
    );
  });
});
