import { describe, expect, it } from 'vitest';
import type { SurveyTemplateSummary } from '@pss/contract';
import { expectError, fieldsOf, filterQuery, type Reply } from '../../../test/kit.js';
import { surveySetup } from '../../../test/survey-calls.js';

const { attached, call, f, seasonProject, template, work } = surveySetup();

type Page = { items: SurveyTemplateSummary[]; total: number };
const names = (reply: Reply) => {
  expect(reply.statusCode, reply.body).toBe(200);
  return reply.json<Page>().items.map((t) => t.name);
};
const unknownId = '00000000-0000-4000-8000-000000000000';

/**
 * Templates used by client A's project, by client B's, by both, and by none; a template "of"
 * a client or project is one that client's projects (or that project) use.
 */
async function fourTemplates() {
  const tag = Math.random().toString(36).slice(2, 7);
  const ofA = await template(`${tag} used by A`, 'END');
  const ofB = await template(`${tag} used by B`, 'END');
  const shared = await template(`${tag} used by both`, 'REVIEW');
  await template(`${tag} used by none`, 'REVIEW');
  const a = await seasonProject(f.clientA.id);
  const b = await seasonProject(f.clientB.id);
  // A second project of A that uses nothing.
  const idle = await seasonProject(f.clientA.id);
  await attached(a.p.id, { end_template_id: ofA.id, review_template_id: shared.id });
  await attached(b.p.id, { end_template_id: ofB.id, review_template_id: shared.id });
  return { tag, a: a.p, b: b.p, idle: idle.p };
}

describe('the survey templates list by client and project (`client`, `project`)', () => {
  it('lists the templates a client’s projects, or one project, use', async () => {
    const { tag, a, b, idle } = await fourTemplates();
    const list = (query: string) => call('GET', `/survey-templates?search=${tag}&${query}`);

    expect(names(await list(`client=${f.clientA.id}`))).toEqual([`${tag} used by A`, `${tag} used by both`]);
    expect(names(await list(`client=${f.clientB.id}`))).toEqual([`${tag} used by B`, `${tag} used by both`]);
    expect(names(await list(`project=${b.id}`))).toEqual([`${tag} used by B`, `${tag} used by both`]);
    expect(names(await list(`project=${idle.id}`))).toEqual([]);
    // Both at once: a project of that client; a project of another client matches nothing.
    expect(names(await list(`client=${f.clientA.id}&project=${a.id}`))).toEqual([
      `${tag} used by A`,
      `${tag} used by both`,
    ]);
    expect(names(await list(`client=${f.clientA.id}&project=${b.id}`))).toEqual([]);
    // With the type filter and paging, as any other filter.
    expect(names(await list(`client=${f.clientA.id}&${filterQuery({ type: 'REVIEW' })}`))).toEqual([
      `${tag} used by both`,
    ]);
    const paged = await list(`client=${f.clientA.id}&limit=1&page=2`);
    expect(names(paged)).toEqual([`${tag} used by both`]);
    expect(paged.json<Page>().total).toBe(2);
    // The same as the filter's client_id and project_id, which may be given alongside when they agree.
    expect(names(await list(filterQuery({ client_id: f.clientB.id })))).toEqual(
      names(await list(`client=${f.clientB.id}`)),
    );
    expect(names(await list(`project=${a.id}&${filterQuery({ project_id: a.id })}`))).toHaveLength(2);
    // An id of nothing: nothing matches.
    expect(names(await list(`client=${unknownId}`))).toEqual([]);
    expect(names(await list(`project=${unknownId}`))).toEqual([]);
  });

  it('refuses ids that are not ids, and a parameter that contradicts the filter', async () => {
    for (const [query, field] of [
      ['client=acme', 'querystring.client'],
      ['project=12', 'querystring.project'],
      [`client=${f.clientA.id}&${filterQuery({ client_id: f.clientB.id })}`, 'querystring.client'],
      [`project=${unknownId}&${filterQuery({ project_id: f.clientA.id })}`, 'querystring.project'],
    ]) {
      const refused = await call('GET', `/survey-templates?${query}`);
      expectError(refused, 400, 'VALIDATION_ERROR');
      expect(fieldsOf(refused)).toEqual([field]);
    }
  });

  it('shows a client administrator only their client’s: another client or its project matches nothing', async () => {
    const { tag, a, b } = await fourTemplates();
    const asA = (query: string) => call('GET', `/survey-templates?search=${tag}&${query}`, { headers: f.asAdminA });
    const asB = (query: string) => call('GET', `/survey-templates?search=${tag}&${query}`, { headers: f.asAdminB });

    expect(names(await asA(`client=${f.clientA.id}`))).toEqual([`${tag} used by A`, `${tag} used by both`]);
    expect(names(await asA(`project=${a.id}`))).toEqual([`${tag} used by A`, `${tag} used by both`]);
    // The shared template is B's too, but A's administrator never learns of B's project through it.
    expect(names(await asA(`client=${f.clientB.id}`))).toEqual([]);
    expect(names(await asA(`project=${b.id}`))).toEqual([]);
    expect(names(await asB(`project=${a.id}`))).toEqual([]);
    expect(names(await asB(`client=${f.clientB.id}`))).toEqual([`${tag} used by B`, `${tag} used by both`]);
    const shared = (await asB(`client=${f.clientB.id}`)).json<Page>().items.find((t) => t.name.endsWith('both'));
    expect(shared?.project_count).toBe(1);
  });

  it('refuses participants and anyone not signed in', async () => {
    const { participant } = await seasonProject();
    expectError(await work.call('GET', `/survey-templates?client=${f.clientA.id}`, participant), 403, 'FORBIDDEN');
    expectError(await call('GET', `/survey-templates?client=${f.clientA.id}`, { headers: {} }), 401, 'NOT_AUTHORIZED');
  });
});
