import { describe, expect, it } from 'vitest';
import type { ProjectSurvey, SurveyTemplate, SurveyTemplateSummary } from '@pss/contract';
import { eq } from 'drizzle-orm';
import { projectSurveys, surveyTemplates } from '../../db/schema/index.js';
import { expectError, fieldsOf } from '../../../test/kit.js';
import { surveySetup } from '../../../test/survey-calls.js';

const {
  answer,
  attach,
  attached,
  call,
  ctx,
  f,
  question,
  requiredAnswers,
  seasonProject,
  template,
  templateBody,
  work,
} = surveySetup();

type Page = { items: SurveyTemplateSummary[]; total: number };
const read = async (id: string) => (await call('GET', `/survey-templates/${id}`)).json<SurveyTemplate>();
const save = (id: string, payload: object, headers?: object) =>
  call('PUT', `/survey-templates/${id}`, { payload, ...(headers ? { headers } : {}) });
const projectSurvey = async (projectId: string) =>
  (await call('GET', `/projects/${projectId}/survey`)).json<ProjectSurvey>();
const named = async (name: string) =>
  (await call('GET', `/survey-templates?search=${encodeURIComponent(name)}`)).json<Page>().total;

/** A template stored before templates had to hold a question (no service would write it now). */
async function storedEmpty(name: string, type: 'REVIEW' | 'END' = 'REVIEW'): Promise<string> {
  const [row] = await ctx.db
    .insert(surveyTemplates)
    .values({ name, type, pages: [] })
    .returning({ id: surveyTemplates.id });
  return row!.id;
}

describe('a template a project uses cannot change (SURVEY_ALREADY_ATTACHED)', () => {
  it('refuses a new name, type, page or component, changing nothing; detached from every project, it may change', async () => {
    const t = await template('Attached review', 'REVIEW');
    const a = await seasonProject(f.clientA.id);
    const b = await seasonProject(f.clientB.id);
    await attached(a.p.id, { review_template_id: t.id });
    await attached(b.p.id, { review_template_id: t.id });
    const before = await read(t.id);
    expect(before.project_count).toBe(2);

    const [first, second] = t.pages;
    for (const payload of [
      { name: 'Renamed', type: t.type, pages: t.pages },
      { name: t.name, type: 'END', pages: t.pages },
      { name: t.name, type: t.type, pages: [second] },
      { name: t.name, type: t.type, pages: [{ ...first, components: first!.components.slice(1) }, second] },
      { name: t.name, type: t.type, pages: [...t.pages, { name: 'More', components: [question('One more?')] }] },
      // Sent back as it is: still a save of an attached template.
      { name: t.name, type: t.type, pages: t.pages },
    ]) {
      const refused = await save(t.id, payload);
      expectError(refused, 409, 'SURVEY_ALREADY_ATTACHED');
      // The superadmin is told where it is attached, and the way forward.
      expect(refused.json().message).toContain(a.p.project.name);
      expect(refused.json().message).toContain('duplicate');
      expect(refused.json<{ details: { projects: { project_id: string }[] } }>().details.projects).toHaveLength(2);
    }
    expect(await read(t.id)).toEqual(before);

    // Still attached to one project: still refused.
    await attached(a.p.id, { review_template_id: null });
    expectError(await save(t.id, { ...templateBody('Renamed', 'REVIEW') }), 409, 'SURVEY_ALREADY_ATTACHED');
    await attached(b.p.id, { review_template_id: null });
    const edited = await save(t.id, { name: 'Renamed', type: 'END', pages: [second] });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<SurveyTemplate>()).toMatchObject({ name: 'Renamed', type: 'END', project_count: 0 });
  });

  it('keeps a template participants answered frozen once detached, and lets its duplicate change', async () => {
    const { p, participant, attemptId } = await seasonProject();
    const start = await template('Answered start', 'START_NEW');
    await attached(p.id, { start_new_template_id: start.id });
    expect((await answer(start.id, attemptId, participant, { answers: requiredAnswers(start) })).statusCode).toBe(200);
    await attached(p.id, { start_new_template_id: null });

    const refused = await save(start.id, templateBody('Changed after answers', 'START_NEW'));
    expectError(refused, 409, 'SURVEY_ALREADY_ATTACHED');
    expect(refused.json().message).toContain('answered');
    expect(await read(start.id)).toMatchObject({ name: 'Answered start', answered: true, project_count: 0 });

    const copy = (await call('POST', `/survey-templates/${start.id}/duplicate`)).json<SurveyTemplate>();
    expect((await save(copy.id, templateBody('Changed copy', 'START_NEW'))).statusCode).toBe(200);
  });

  it('answers bad input and refused callers as before, whether or not the template is attached', async () => {
    const t = await template('Attached, asked badly', 'END');
    const { p, participant } = await seasonProject();
    await attached(p.id, { end_template_id: t.id });
    const before = await read(t.id);

    expectError(await save(t.id, { name: '', type: 'END', pages: t.pages }), 400, 'VALIDATION_ERROR');
    expectError(await save(t.id, { name: 'X', type: 'MIDDLE', pages: t.pages }), 400, 'VALIDATION_ERROR');
    expectError(await save('00000000-0000-4000-8000-000000000000', templateBody('X', 'END')), 404, 'NOT_FOUND');
    // Client administrators never write templates: the owner of the project as much as another client's.
    for (const headers of [f.asAdminA, f.asAdminB]) {
      expectError(await save(t.id, templateBody('Mine now', 'END'), headers), 403, 'FORBIDDEN');
    }
    expectError(
      await work.call('PUT', `/survey-templates/${t.id}`, participant, templateBody('X', 'END')),
      403,
      'FORBIDDEN',
    );
    expectError(await save(t.id, templateBody('X', 'END'), {}), 401, 'NOT_AUTHORIZED');
    expect(await read(t.id)).toEqual(before);
  });
});

describe('an empty survey is refused (SURVEY_EMPTY)', () => {
  it('refuses a template without pages, or with a page without a question or info review, on create and on save', async () => {
    const none = await call('POST', '/survey-templates', { payload: { name: 'No pages yet', type: 'END' } });
    expectError(none, 422, 'SURVEY_EMPTY');
    expect(fieldsOf(none)).toEqual(['body.pages']);
    expect(none.json().message).toMatch(/at least one page/);

    const body = templateBody('One empty page', 'REVIEW');
    const withEmpty = { ...body, pages: [body.pages[0], { name: 'Nothing here', components: [] }] };
    const refused = await call('POST', '/survey-templates', { payload: withEmpty });
    expectError(refused, 422, 'SURVEY_EMPTY');
    expect(fieldsOf(refused)).toEqual(['body.pages.1.components']);
    expect(await named('No pages yet')).toBe(0);
    expect(await named('One empty page')).toBe(0);

    // An info review alone is content enough (it asks the participant to confirm their details).
    const infoOnly = await call('POST', '/survey-templates', {
      payload: { name: 'Details only', type: 'END', pages: [{ name: 'You', components: [{ kind: 'INFO_REVIEW' }] }] },
    });
    expect(infoOnly.statusCode, infoOnly.body).toBe(201);

    const t = await template('Emptied on save', 'REVIEW');
    const before = await read(t.id);
    expectError(await save(t.id, { name: t.name, type: t.type, pages: [] }), 422, 'SURVEY_EMPTY');
    const emptied = await save(t.id, { name: t.name, type: t.type, pages: [{ ...t.pages[0], components: [] }] });
    expectError(emptied, 422, 'SURVEY_EMPTY');
    expect(fieldsOf(emptied)).toEqual(['body.pages.0.components']);
    expect(await read(t.id)).toEqual(before);
  });

  it('refuses attaching an empty template to a project, naming the field, and leaves one already chosen alone', async () => {
    const { p } = await seasonProject();
    const review = await template('Full review', 'REVIEW');
    await attached(p.id, { review_template_id: review.id });
    const empty = await storedEmpty('Stored empty review');

    for (const headers of [f.asSuperadmin, f.asAdminA]) {
      const refused = await attach(p.id, { review_template_id: empty }, headers);
      expectError(refused, 422, 'SURVEY_EMPTY');
      expect(fieldsOf(refused)).toEqual(['body.review_template_id']);
    }
    // Another client's administrator learns nothing of the project, empty template or not.
    expectError(await attach(p.id, { review_template_id: empty }, f.asAdminB), 404, 'PROJECT_NOT_FOUND');
    expect((await projectSurvey(p.id)).review_template_id).toBe(review.id);

    // Chosen before the rule, it may stay while the project's other surveys are saved.
    const end = await template('Full end', 'END');
    await ctx.db.update(projectSurveys).set({ reviewTemplateId: empty }).where(eq(projectSurveys.projectId, p.id));
    const kept = await attach(p.id, { review_template_id: empty, end_template_id: end.id });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json<ProjectSurvey>()).toMatchObject({ review_template_id: empty, end_template_id: end.id });
  });
});
