import { describe, expect, it } from 'vitest';
import type { LinkedProject, SurveyTemplate, SurveyTemplateSummary } from '@pss/contract';
import { expectError, fieldIssues, fieldsOf, type Reply } from '../../../test/kit.js';
import { surveySetup } from '../../../test/survey-calls.js';

const {
  answer,
  attached,
  call,
  deleteQuery,
  f,
  infoReview,
  question,
  requiredAnswers,
  seasonProject,
  template,
  templateBody,
  work,
} = surveySetup();

type Page = { items: SurveyTemplateSummary[]; total: number };
const names = (reply: Reply) => reply.json<Page>().items.map((t) => t.name);

describe('creating and editing survey templates', () => {
  it('creates a template from a name, a type and pages, then saves it whole, keeping the ids it gave', async () => {
    const first = templateBody('Welcome back', 'END');
    const created = await call('POST', '/survey-templates', {
      payload: { ...first, name: '  Welcome back ', pages: [first.pages[0]] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const made = created.json<SurveyTemplate>();
    expect(made).toMatchObject({ name: 'Welcome back', type: 'END', project_count: 0, answered: false });
    expect(made.pages.map((p) => p.name)).toEqual(['About you']);

    const body = templateBody('Welcome back', 'END');
    const saved = await call('PUT', `/survey-templates/${made.id}`, { payload: body });
    expect(saved.statusCode, saved.body).toBe(200);
    const doc = saved.json<SurveyTemplate>();
    expect(doc.pages.map((p) => p.name)).toEqual(['About you', 'Your words']);
    expect(doc.pages[0]!.components.map((c) => c.kind === 'QUESTION' && c.type)).toEqual([
      'MULTI_ONE',
      'MULTI_MANY',
      'DROPDOWN',
    ]);
    expect(doc.pages[1]!.components.map((c) => (c.kind === 'QUESTION' ? c.type : c.kind))).toEqual([
      'TEXT',
      'TYPE_AHEAD',
      'INFO_REVIEW',
    ]);
    // "Other" and "none of the below" are kept only where a choice question has them; text takes no choices.
    const [, many] = doc.pages[0]!.components;
    expect(many).toMatchObject({ allow_other: true, allow_none_of_below: true });

    // Sent back with their ids, pages reordered: the ids stay (answers point at them).
    const reordered = { ...body, pages: [doc.pages[1], doc.pages[0]] };
    const again = (await call('PUT', `/survey-templates/${made.id}`, { payload: reordered })).json<SurveyTemplate>();
    expect(again.pages.map((p) => p.id)).toEqual([doc.pages[1]!.id, doc.pages[0]!.id]);
    expect((await call('GET', `/survey-templates/${made.id}`)).json<SurveyTemplate>()).toEqual(again);
  });

  it('refuses two pages of one name, naming the page, whatever their case', async () => {
    const body = templateBody('Pages', 'REVIEW');
    body.pages[1]!.name = ' about YOU ';
    const refused = await call('POST', '/survey-templates', { payload: body });
    expectError(refused, 409, 'PAGE_NAME_NOT_UNIQUE');
    expect(refused.json().message).toContain('"about YOU"');
    expect(fieldsOf(refused)).toEqual(['body.pages.1.name']);
  });

  it('refuses an info review in a START_NEW template, on create and on save', async () => {
    const body = templateBody('Newcomers', 'START_NEW');
    body.pages[1]!.components.push(infoReview as never);
    const refused = await call('POST', '/survey-templates', { payload: body });
    expectError(refused, 422, 'START_NEW_SURVEY_INFO_REVIEW_NOT_ALLOWED');
    expect(fieldsOf(refused)).toEqual(['body.pages.1.components.2']);

    const review = await template('Becomes start new', 'REVIEW');
    const changed = await call('PUT', `/survey-templates/${review.id}`, {
      payload: { name: review.name, type: 'START_NEW', pages: review.pages },
    });
    expectError(changed, 422, 'START_NEW_SURVEY_INFO_REVIEW_NOT_ALLOWED');
  });

  it('refuses blank names, questions and choices, too few choices, and bad shapes', async () => {
    const blank = await call('POST', '/survey-templates', {
      payload: {
        name: 'Blanks',
        type: 'END',
        pages: [
          { name: ' ', components: [question(' '), question('Pick', { choices: [{ text: 'Only one' }] })] },
          { name: 'Two', components: [question('Twice', { choices: [{ text: 'A' }, { text: 'a ' }] })] },
        ],
      },
    });
    expectError(blank, 400, 'VALIDATION_ERROR');
    expect(fieldsOf(blank)).toEqual([
      'body.pages.0.name',
      'body.pages.0.components.0.text',
      'body.pages.0.components.1.choices',
      'body.pages.1.components.0.choices.1.text',
    ]);
    for (const payload of [
      { name: '', type: 'END' },
      { name: 'No type' },
      { name: 'Bad type', type: 'MIDDLE' },
      { name: 'Bad kind', type: 'END', pages: [{ name: 'P', components: [{ kind: 'VIDEO' }] }] },
      { name: 'Extra', type: 'END', colour: 'red' },
    ]) {
      expectError(await call('POST', '/survey-templates', { payload }), 400, 'VALIDATION_ERROR');
    }
    expectError(
      await call('PUT', '/survey-templates/00000000-0000-4000-8000-000000000000', {
        payload: templateBody('X', 'END'),
      }),
      404,
      'NOT_FOUND',
    );
    expectError(await call('GET', '/survey-templates/not-a-uuid'), 400, 'VALIDATION_ERROR');
  });

  it('duplicates a template with new ids under a new name', async () => {
    const original = await template('Original survey', 'REVIEW');
    const copied = await call('POST', `/survey-templates/${original.id}/duplicate`, { payload: {} });
    expect(copied.statusCode).toBe(201);
    const copy = copied.json<SurveyTemplate>();
    expect(copy).toMatchObject({ name: 'Original survey (copy)', type: 'REVIEW', answered: false, project_count: 0 });
    expect(copy.pages.map((p) => p.name)).toEqual(original.pages.map((p) => p.name));
    expect(copy.pages[0]!.id).not.toBe(original.pages[0]!.id);
    const named = await call('POST', `/survey-templates/${original.id}/duplicate`, { payload: { name: 'Mine' } });
    expect(named.json<SurveyTemplate>().name).toBe('Mine');
  });

  it('freezes a template once a project uses it or participants answered it (SURVEY_ALREADY_ATTACHED)', async () => {
    const { p, participant, attemptId } = await seasonProject();
    const start = await template('Frozen start', 'START_NEW');
    // Free: its content may change.
    const renamed = await call('PUT', `/survey-templates/${start.id}`, {
      payload: { name: 'Frozen start, renamed', type: 'START_NEW', pages: start.pages },
    });
    expect(renamed.statusCode).toBe(200);
    await attached(p.id, { start_new_template_id: start.id });
    // Used by a project: its type, as anything else, cannot change (survey-template-edits.test.ts has the rest).
    const retyped = await call('PUT', `/survey-templates/${start.id}`, {
      payload: { name: start.name, type: 'END', pages: start.pages },
    });
    expectError(retyped, 409, 'SURVEY_ALREADY_ATTACHED');

    const answered = await answer(start.id, attemptId, participant, { answers: requiredAnswers(start) });
    expect(answered.statusCode, answered.body).toBe(200);
    const frozen = await call('PUT', `/survey-templates/${start.id}`, {
      payload: templateBody('Changed after answers', 'START_NEW'),
    });
    expectError(frozen, 409, 'SURVEY_ALREADY_ATTACHED');
    const after = (await call('GET', `/survey-templates/${start.id}`)).json<SurveyTemplate>();
    expect(after).toMatchObject({ name: 'Frozen start, renamed', answered: true, project_count: 1 });
    expect(after.pages).toEqual(start.pages);
    // The way to change it: a duplicate, which is free to edit.
    const copy = (await call('POST', `/survey-templates/${start.id}/duplicate`)).json<SurveyTemplate>();
    const edited = await call('PUT', `/survey-templates/${copy.id}`, {
      payload: templateBody('Changed copy', 'START_NEW'),
    });
    expect(edited.statusCode).toBe(200);
  });
});

describe('listing, linking and deleting survey templates', () => {
  it('pages, searches, sorts and filters by type, client and project', async () => {
    const tag = Math.random().toString(36).slice(2, 7);
    const made: SurveyTemplate[] = [];
    for (const [name, type] of [
      [`${tag} Alpha`, 'REVIEW'],
      [`${tag} Bravo`, 'END'],
      [`${tag} Charlie`, 'REVIEW'],
    ] as const) {
      made.push(await template(name, type));
    }
    const { p } = await seasonProject();
    await attached(p.id, { review_template_id: made[2]!.id });

    const first = await call('GET', `/survey-templates?search=${tag}&limit=2&sort=name:DESC`);
    expect(first.statusCode).toBe(200);
    expect(first.json<Page>().total).toBe(3);
    expect(names(first)).toEqual([`${tag} Charlie`, `${tag} Bravo`]);
    expect(names(await call('GET', `/survey-templates?search=${tag}&limit=2&page=2&sort=name:DESC`))).toEqual([
      `${tag} Alpha`,
    ]);
    const filtered = (filter: object) =>
      call('GET', `/survey-templates?search=${tag}&filter=${encodeURIComponent(JSON.stringify(filter))}`);
    expect(names(await filtered({ type: 'REVIEW' }))).toEqual([`${tag} Alpha`, `${tag} Charlie`]);
    expect(names(await filtered({ project_id: p.id }))).toEqual([`${tag} Charlie`]);
    expect(names(await filtered({ client_id: f.clientA.id }))).toEqual([`${tag} Charlie`]);
    expect(names(await filtered({ client_id: f.clientB.id }))).toEqual([]);
    const counted = (await filtered({ type: 'REVIEW' })).json<Page>().items;
    expect(counted.map((t) => [t.project_count, t.page_count, t.question_count])).toEqual([
      [0, 2, 5],
      [1, 2, 5],
    ]);

    expectError(await call('GET', '/survey-templates?sort=colour:ASC'), 400, 'VALIDATION_ERROR');
    expectError(await filtered({ type: 'MIDDLE' }), 400, 'VALIDATION_ERROR');
  });

  it('names the projects that use a template', async () => {
    const t = await template('Linked survey', 'END');
    const { p } = await seasonProject();
    await attached(p.id, { end_template_id: t.id });
    const linked = await call('GET', `/survey-templates/${t.id}/projects`);
    expect(linked.json<LinkedProject[]>()).toEqual([
      {
        project_id: p.id,
        project_name: p.project.name,
        client_id: f.clientA.id,
        client_name: 'Alpha Health',
        type: 'END',
      },
    ]);
  });

  it('deletes a selection whole, or nothing when any is used by a project or answered', async () => {
    const unused = [await template('Delete me 1', 'END'), await template('Delete me 2', 'END')];
    const used = await template('Used, kept', 'END');
    const { p } = await seasonProject();
    await attached(p.id, { end_template_id: used.id });

    const refused = await call('DELETE', `/survey-templates?${deleteQuery({ ids: [unused[0]!.id, used.id] })}`);
    expectError(refused, 409, 'SURVEY_ATTACHED_DELETE_FORBIDDEN');
    expect(refused.json<{ details: { templates: { name: string }[] } }>().details.templates).toEqual([
      { id: used.id, name: 'Used, kept' },
    ]);
    expect((await call('GET', `/survey-templates/${unused[0]!.id}`)).statusCode).toBe(200);

    const deleted = await call('DELETE', `/survey-templates?${deleteQuery({ ids: unused.map((t) => t.id) })}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json<{ ids: string[] }>().ids.sort()).toEqual(unused.map((t) => t.id).sort());
    expectError(await call('GET', `/survey-templates/${unused[0]!.id}`), 404, 'NOT_FOUND');
    expectError(await call('DELETE', `/survey-templates?${deleteQuery({ ids: [unused[1]!.id] })}`), 404, 'NOT_FOUND');
    expectError(await call('DELETE', '/survey-templates?filter=%7Bnope'), 400, 'VALIDATION_ERROR');
    expectError(await call('DELETE', '/survey-templates'), 400, 'REQUIRED_PARAMETER_MISSING');

    // Detached, a template with answers still cannot go: the answers hang on it.
    const { p: other, participant, attemptId } = await seasonProject();
    const start = await template('Answered then detached', 'START_NEW');
    await attached(other.id, { start_new_template_id: start.id });
    expect((await answer(start.id, attemptId, participant, { answers: requiredAnswers(start) })).statusCode).toBe(200);
    await attached(other.id, { start_new_template_id: null });
    expectError(
      await call('DELETE', `/survey-templates?${deleteQuery({ ids: [start.id] })}`),
      409,
      'SURVEY_ATTACHED_DELETE_FORBIDDEN',
    );
  });
});

describe('who may use survey templates', () => {
  it('lets only superadmins write, and refuses participants everything', async () => {
    const t = await template('Roles survey', 'END');
    const { participant } = await seasonProject();
    for (const headers of [f.asAdminA, f.asAdminB]) {
      expectError(
        await call('POST', '/survey-templates', { headers, payload: templateBody('No', 'END') }),
        403,
        'FORBIDDEN',
      );
      expectError(
        await call('PUT', `/survey-templates/${t.id}`, { headers, payload: templateBody('No', 'END') }),
        403,
        'FORBIDDEN',
      );
      expectError(await call('POST', `/survey-templates/${t.id}/duplicate`, { headers }), 403, 'FORBIDDEN');
      expectError(
        await call('DELETE', `/survey-templates?${deleteQuery({ ids: [t.id] })}`, { headers }),
        403,
        'FORBIDDEN',
      );
    }
    for (const url of ['/survey-templates', `/survey-templates/${t.id}`, `/survey-templates/${t.id}/projects`]) {
      expectError(await work.call('GET', url, participant), 403, 'FORBIDDEN');
      expectError(await call('GET', url, { headers: {} }), 401, 'NOT_AUTHORIZED');
    }
  });

  it('tells a client administrator "not found" for templates only other clients’ projects use', async () => {
    const tag = Math.random().toString(36).slice(2, 7);
    const ofA = await template(`${tag} used by A`, 'END');
    const ofB = await template(`${tag} used by B`, 'END');
    const shared = await template(`${tag} used by both`, 'REVIEW');
    const free = await template(`${tag} used by none`, 'REVIEW');
    const a = await seasonProject(f.clientA.id);
    const b = await seasonProject(f.clientB.id);
    await attached(a.p.id, { end_template_id: ofA.id, review_template_id: shared.id });
    await attached(b.p.id, { end_template_id: ofB.id, review_template_id: shared.id });

    const asA = (url: string) => call('GET', url, { headers: f.asAdminA });
    expect(names(await asA(`/survey-templates?search=${tag}`))).toEqual([
      `${tag} used by A`,
      `${tag} used by both`,
      `${tag} used by none`,
    ]);
    expectError(await asA(`/survey-templates/${ofB.id}`), 404, 'NOT_FOUND');
    expectError(await asA(`/survey-templates/${ofB.id}/projects`), 404, 'NOT_FOUND');
    expect((await asA(`/survey-templates/${free.id}`)).json<SurveyTemplate>().project_count).toBe(0);
    // The shared one shows A's project only, counted and listed.
    expect((await asA(`/survey-templates/${shared.id}`)).json<SurveyTemplate>().project_count).toBe(1);
    expect(
      (await asA(`/survey-templates/${shared.id}/projects`)).json<LinkedProject[]>().map((l) => l.project_id),
    ).toEqual([a.p.id]);
    // Filters naming B's client or project show nothing.
    const filtered = (filter: object) => asA(`/survey-templates?filter=${encodeURIComponent(JSON.stringify(filter))}`);
    expect((await filtered({ client_id: f.clientB.id })).json<Page>().total).toBe(0);
    expect((await filtered({ project_id: b.p.id })).json<Page>().total).toBe(0);
    // Nor can A choose B's template for a project of A's.
    const attach = await call('PUT', `/projects/${a.p.id}/survey`, {
      headers: f.asAdminA,
      payload: { end_template_id: ofB.id },
    });
    expectError(attach, 404, 'NOT_FOUND');
    expect(fieldIssues(attach).map((i) => i.field)).toEqual(['body.end_template_id']);
  });
});
