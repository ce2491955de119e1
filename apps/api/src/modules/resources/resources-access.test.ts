import { describe, expect, it } from 'vitest';
import type { CaseResources, ParticipantResource, Resource, ResourceFileDetails, ResourcePage } from '@pss/contract';
import { expectError, fieldsOf } from '../../../test/kit.js';
import { resourceSetup } from '../../../test/resource-calls.js';
import { pngImage } from '../../../test/resource-files.js';
import { validCase } from '../../../test/case-bodies.js';
import { smallPdf } from '../../../test/summary-files.js';

const { attach, call, ctx, draftCase, f, get, pathOf, textResource, uploaded, urlResource, work } = resourceSetup();

const HOUR = 3600 * 1000;

describe('signed links', () => {
  it('serve the file with its true type, nosniff and a policy that runs nothing, inline or to download', async () => {
    const pdf = smallPdf();
    const resource = await uploaded(pdf, 'Handout.pdf');
    const details = (await call('GET', `/resource-library/file/${resource.id}/details`)).json<ResourceFileDetails>();
    expect(details.view.expires_at).toBe('2026-03-02T10:00:00.000Z');
    const view = await call('GET', pathOf(details.view.url), { headers: {} });
    expect(view.statusCode).toBe(200);
    expect(view.headers).toMatchObject({
      'content-type': 'application/pdf',
      'x-content-type-options': 'nosniff',
      'content-disposition': `inline; filename="Handout.pdf"; filename*=UTF-8''Handout.pdf`,
    });
    expect(view.headers['content-security-policy']).toMatch(/^default-src 'none'/);
    expect(view.rawPayload.equals(pdf)).toBe(true);
    const download = await call('GET', pathOf(details.download.url), { headers: {} });
    expect(download.headers['content-disposition']).toMatch(/^attachment; /);
    const range = await ctx.app.inject({ method: 'GET', url: details.view.url, headers: { range: 'bytes=0-4' } });
    expect(range.statusCode).toBe(206);
    expect(range.headers['content-range']).toBe(`bytes 0-4/${pdf.length}`);
    expect(range.body).toBe('%PDF-');
  });

  it('never serves an image as a page: the sandbox policy and its own type', async () => {
    const png = await uploaded(await pngImage(), 'image.png');
    const link = (await call('GET', `/resource-library/file/${png.id}/link`)).json<{ url: string }>();
    const served = await call('GET', pathOf(link.url), { headers: {} });
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['content-security-policy']).toMatch(/sandbox/);
  });

  it('refuse an altered link and an expired one with SIGNED_LINK_INVALID', async () => {
    const resource = await uploaded(smallPdf(), 'secret.pdf');
    const other = await uploaded(smallPdf('other'), 'other.pdf');
    const { url } = (await call('GET', `/resource-library/file/${resource.id}/link`)).json<{ url: string }>();
    const token = url.split('/').pop()!;
    const [id, kind, exp, signature] = token.split('.') as [string, string, string, string];
    const otherId = other.id.replace(/-/g, '');
    const altered = [
      `${otherId}.${kind}.${exp}.${signature}`, // another resource
      `${id}.fa.${exp}.${signature}`, // a download instead
      `${id}.${kind}.${(parseInt(exp, 36) + 86400).toString(36)}.${signature}`, // a later expiry
      `${id}.${kind}.${exp}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`, // the signature
      'not-a-token-at-all',
    ];
    for (const bad of altered) {
      expectError(await call('GET', `/resource-files/${bad}`, { headers: {} }), 403, 'SIGNED_LINK_INVALID');
    }
    expect((await call('GET', pathOf(url), { headers: {} })).statusCode).toBe(200);
    ctx.clock.advance(HOUR + 1000);
    expectError(await call('GET', pathOf(url), { headers: {} }), 403, 'SIGNED_LINK_INVALID');
    ctx.clock.set('2026-03-02T09:00:00Z');
  });

  it('answer 404 for a link or text resource and for a deleted resource', async () => {
    const text = await textResource();
    expectError(await call('GET', `/resource-library/file/${text.id}/link`), 404, 'NOT_FOUND');
    const pdf = await uploaded(smallPdf(), 'short-lived.pdf');
    const { url } = (await call('GET', `/resource-library/file/${pdf.id}/link`)).json<{ url: string }>();
    await call('DELETE', `/resource-library?filter=${encodeURIComponent(JSON.stringify({ ids: [pdf.id] }))}`);
    expectError(await call('GET', pathOf(url), { headers: {} }), 404, 'NOT_FOUND');
  });
});

describe('attaching resources to cases', () => {
  it('sets a draft case’s resources in order; the attachment status and the uses follow', async () => {
    const [a, b] = [await textResource('First', 'x'), await urlResource({ name: 'Second' })];
    const { caseId, projectId } = await draftCase();
    const set = await attach(caseId, [b.id, a.id], f.asAdminA);
    expect(set.json<CaseResources>().items.map((r) => r.name)).toEqual(['Second', 'First']);
    expect(
      (await call('GET', `/cases/${caseId}/resources`, { headers: f.asAdminA })).json<CaseResources>().items,
    ).toHaveLength(2);
    expect(await get(a.id)).toMatchObject({ attachment_status: 'ATTACHED_INACTIVE', attached_case_count: 1 });
    const uses = (await call('GET', `/resource-library/${a.id}/cases`)).json<{ items: object[] }>().items;
    expect(uses).toEqual([
      expect.objectContaining({
        case_id: caseId,
        case_name: 'Chest pain',
        case_status: 'DRAFT',
        project_id: projectId,
        client_name: 'Alpha Health',
      }),
    ]);
    expect((await call('GET', `/resource-library/${a.id}/clients`)).json()).toEqual({
      items: [{ id: f.clientA.id, name: 'Alpha Health' }],
    });
    const attached = (
      await call('GET', '/resource-library?filter=' + encodeURIComponent('{"attachment_status":"ATTACHED_INACTIVE"}'))
    ).json<ResourcePage>();
    expect(attached.items.map((r) => r.id)).toEqual(expect.arrayContaining([a.id, b.id]));
  });

  it('reads ATTACHED_ACTIVE once the case is published in an active project', async () => {
    const resource = await textResource('Active one', 'x');
    const p = await work.project(f.clientA.id);
    const doc = await work.publishedCase(p, 2, { name: 'Published case' });
    // A published case is read-only: attach while it is a draft.
    expectError(await attach(doc.id, [resource.id]), 403, 'CHANGES_FORBIDDEN');
    await call('POST', `/cases/${doc.id}/status`, { payload: { status: 'DRAFT' } });
    expect((await attach(doc.id, [resource.id])).statusCode).toBe(200);
    expect((await get(resource.id)).attachment_status).toBe('ATTACHED_INACTIVE');
    expect((await call('POST', `/cases/${doc.id}/status`, { payload: { status: 'PUBLISHED' } })).statusCode).toBe(200);
    expect((await get(resource.id)).attachment_status).toBe('ATTACHED_ACTIVE');
  });

  it('goes with a case’s duplicate, in the same order', async () => {
    const [a, b] = [await textResource('Copied first', 'x'), await textResource('Copied second', 'x')];
    const { caseId } = await draftCase();
    await attach(caseId, [b.id, a.id]);
    const copy = await call('POST', `/cases/${caseId}/duplicate`, { payload: { name: 'Chest pain (copy)' } });
    expect(copy.statusCode, copy.body).toBe(201);
    const id = copy.json<{ id: string }>().id;
    const copied = (await call('GET', `/cases/${id}/resources`)).json<CaseResources>().items.map((r) => r.name);
    expect(copied).toEqual(['Copied second', 'Copied first']);
    expect((await get(a.id)).attached_case_count).toBe(2);
  });

  it('refuses bad bodies and unknown resources, changing nothing', async () => {
    const resource = await textResource();
    const { caseId } = await draftCase();
    expect(fieldsOf(await attach(caseId, [resource.id, resource.id]))).toEqual(['body.resource_ids']);
    expect(fieldsOf(await attach(caseId, ['nope']))).toEqual(['body.resource_ids.0']);
    expect(fieldsOf(await attach(caseId, [crypto.randomUUID()]))).toEqual(['body.resource_ids']);
    expectError(await attach(crypto.randomUUID(), [resource.id]), 404, 'CASE_NOT_FOUND');
    expect((await call('GET', `/cases/${caseId}/resources`)).json<CaseResources>().items).toEqual([]);
  });
});

describe('client administrators', () => {
  it('may not reach another client’s case, nor learn of its attachments in the picker', async () => {
    const resource = await textResource('Alpha only', 'x');
    const { caseId } = await draftCase(f.clientA.id);
    expect((await attach(caseId, [resource.id], f.asAdminA)).statusCode).toBe(200);
    expectError(await attach(caseId, [], f.asAdminB), 404, 'CASE_NOT_FOUND');
    expectError(await call('GET', `/cases/${caseId}/resources`, { headers: f.asAdminB }), 404, 'CASE_NOT_FOUND');
    const pick = async (headers: object, query = '') =>
      (await call('GET', `/resource-library/modal?search=Alpha%20only${query}`, { headers })).json<ResourcePage>();
    expect((await pick(f.asAdminA)).items[0]).toMatchObject({
      attachment_status: 'ATTACHED_INACTIVE',
      attached_case_count: 1,
    });
    expect((await pick(f.asAdminB)).items[0]).toMatchObject({
      attachment_status: 'NOT_ATTACHED',
      attached_case_count: 0,
    });
    expect((await pick(f.asAdminB, '&attachmentStatus=ATTACHED_INACTIVE')).items).toEqual([]);
    expect((await pick(f.asAdminA, `&client=${f.clientA.id}`)).items).toHaveLength(1);
    expectError(
      await call('GET', `/resource-library/modal?client=${f.clientA.id}`, { headers: f.asAdminB }),
      404,
      'NOT_FOUND',
    );
    // The library itself is the provider's.
    for (const url of [
      '/resource-library',
      `/resource-library/${resource.id}`,
      `/resource-library/${resource.id}/cases`,
    ]) {
      expectError(await call('GET', url, { headers: f.asAdminA }), 403, 'FORBIDDEN');
    }
  });
});

describe('participants', () => {
  it('see their own case’s resources behind signed links, never another’s', async () => {
    const png = await uploaded(await pngImage(), 'chest x-ray.png');
    const link = await urlResource({ name: 'Guideline' });
    await ctx.app.resources.runPending();
    const p = await work.project(f.clientA.id);
    // Attached while a draft, then published in the running round.
    const created = await call('POST', '/cases', {
      payload: { project_id: p.id, name: 'Case with resources', disease_type_id: p.diseaseTypeId },
    });
    const doc = created.json<{ id: string }>();
    const body = validCase(p, { name: 'Case with resources', season_id: p.seasonId, round_number: 1 });
    expect((await call('PUT', `/cases/${doc.id}`, { payload: body })).statusCode).toBe(200);
    expect((await attach(doc.id, [png.id, link.id])).statusCode).toBe(200);
    expect((await call('POST', `/cases/${doc.id}/status`, { payload: { status: 'PUBLISHED' } })).statusCode).toBe(200);
    const mine = await work.enrol(p, f.clientA.id);
    const other = await work.enrol(p, f.clientA.id);
    const attemptId = await work.attemptOf(mine, 'Case with resources');
    const othersAttempt = await work.attemptOf(other, 'Case with resources');

    const seen = await work.call('GET', `/users/${attemptId}/resources`, mine);
    const items = seen.json<{ items: ParticipantResource[] }>().items;
    expect(items.map((r) => [r.name, r.source_type])).toEqual([
      ['chest x-ray', 'IMAGE'],
      ['Guideline', 'URL'],
    ]);
    expect(items[1]).toMatchObject({ link: link.link, view: null });
    const image = await call('GET', pathOf(items[0]!.view!.url), { headers: {} });
    expect(image.headers['content-type']).toBe('image/png');
    expect(items[0]!.thumbnail?.thumbnail_status).toBe('READY');

    expectError(await work.call('GET', `/users/${othersAttempt}/resources`, mine), 404, 'NOT_FOUND');
    expectError(await work.call('GET', `/resource-library/file/${png.id}/link`, mine), 403, 'FORBIDDEN');
    expectError(await work.call('GET', `/resource-library/modal`, mine), 403, 'FORBIDDEN');
    expectError(await work.call('GET', `/cases/${doc.id}/resources`, mine), 403, 'FORBIDDEN');
  });
});

describe('resource reads', () => {
  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    expectError(await call('GET', `/resource-library/${crypto.randomUUID()}`), 404, 'NOT_FOUND');
    expectError(await call('GET', '/resource-library/not-a-uuid'), 400, 'VALIDATION_ERROR');
    expect((await get((await urlResource()).id)).source_type).toBe('URL');
    const r = (await call('GET', '/resource-library?limit=1')).json<ResourcePage>();
    expect(r.items[0]).toBeDefined();
    void ({} as Resource);
  });
});
