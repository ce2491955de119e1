import { describe, expect, it } from 'vitest';
import { createUser } from '../../../test/test-app.js';
import { as, expectError, filterQuery, type Method } from '../../../test/kit.js';
import { everyTypeCase as validCase, requiredAnswers } from '../../../test/case-bodies.js';
import { onePixelPng } from '../../../test/images.js';
import { casesSetup } from '../../../test/case-calls.js';

const { ctx, f, call, newProject, projectA, createCase, getCase, caseCount, previewCount, uploadImage } = casesSetup();

describe('isolation between clients and roles', () => {
  it('keeps client A’s cases, images and previews from client B’s administrator, and changes nothing', async () => {
    const p = await projectA();
    const pB = await newProject(f.clientB.id);
    const doc = await createCase(p);
    expect((await uploadImage(doc.id, onePixelPng())).statusCode).toBe(200);
    const preview = await call('POST', '/previews', { payload: { case_id: doc.id, answers: requiredAnswers(doc) } });
    expect(preview.statusCode).toBe(201);
    const previewId = preview.json<{ id: string }>().id;
    const theirCase = await createCase(pB, {}, f.asAdminB);

    const stored = await getCase(doc.id);
    const counts = { cases: await caseCount(), previews: await previewCount() };
    const b = { headers: f.asAdminB };
    const caseCalls: [Method, string, object?][] = [
      ['GET', `/cases/${doc.id}`],
      ['PUT', `/cases/${doc.id}`, validCase(pB)],
      ['DELETE', `/cases/${doc.id}`],
      ['POST', `/cases/${doc.id}/remove-project`],
      ['GET', `/cases/${doc.id}/status`],
      ['POST', `/cases/${doc.id}/status`, { status: 'PUBLISHED' }],
      ['GET', `/cases/${doc.id}/count`],
      ['POST', `/cases/${doc.id}/move`, { project_id: pB.id }],
      ['POST', `/cases/${doc.id}/duplicate`, {}],
      ['POST', `/cases/${doc.id}/duplicate-detach`, {}],
      ['GET', `/cases/${doc.id}/image`],
      ['DELETE', `/cases/${doc.id}/image`],
      ['GET', `/cases/${doc.id}/preview`],
      ['GET', `/cases/${doc.id}/feedback`],
      ['GET', `/cases/${doc.id}/previews`],
      ['POST', '/previews', { case_id: doc.id, answers: requiredAnswers(doc) }],
    ];
    for (const [method, url, payload] of caseCalls) {
      const response = await call(method, url, { ...b, payload });
      expect({ call: `${method} ${url}`, status: response.statusCode, code: response.json().errorCode }).toEqual({
        call: `${method} ${url}`,
        status: 404,
        code: 'CASE_NOT_FOUND',
      });
    }
    expectError(await uploadImage(doc.id, onePixelPng(), 'photo.png', f.asAdminB), 404, 'CASE_NOT_FOUND');
    expectError(await call('GET', `/previews/${previewId}`, b), 404, 'NOT_FOUND');
    expectError(await call('DELETE', `/previews/${previewId}`, b), 404, 'NOT_FOUND');
    expectError(await call('GET', `/projects/${p.id}/cases`, b), 404, 'PROJECT_NOT_FOUND');
    expectError(
      await call('POST', '/cases', { ...b, payload: { project_id: p.id, name: 'Planted' } }),
      404,
      'PROJECT_NOT_FOUND',
    );
    // Their own case cannot pull A's into a bulk delete or move either.
    expectError(
      await call('DELETE', `/cases/${theirCase.id}?${filterQuery({ ids: [doc.id] })}`, b),
      400,
      'CASES_FROM_WRONG_PROJECT',
    );
    expectError(
      await call('POST', `/cases/${theirCase.id}/move`, { ...b, payload: { project_id: p.id } }),
      404,
      'PROJECT_NOT_FOUND',
    );

    expect(await getCase(doc.id)).toEqual(stored);
    expect(await getCase(theirCase.id, f.asAdminB)).toEqual(theirCase);
    expect(await caseCount()).toBe(counts.cases);
    expect(await previewCount()).toBe(counts.previews);
    expect((await call('GET', `/previews/${previewId}`)).statusCode).toBe(200);
    expect((await call('GET', `/cases/${doc.id}/image`)).rawPayload).toEqual(onePixelPng());
  });

  it('refuses a participant’s token with 403 FORBIDDEN and no token with 401 NOT_AUTHORIZED', async () => {
    const p = await projectA();
    const doc = await createCase(p);
    const participant = await createUser(ctx.db, { role: 'USER', clientId: f.clientA.id });
    const asParticipant = await as(ctx, participant);
    const calls: [Method, string, object?][] = [
      ['GET', `/cases/${doc.id}`],
      ['GET', `/projects/${p.id}/cases`],
      ['POST', '/cases', { project_id: p.id, name: 'Mine' }],
      ['PUT', `/cases/${doc.id}`, validCase(p)],
      ['DELETE', `/cases/${doc.id}`],
      ['GET', `/cases/${doc.id}/preview`],
      ['POST', '/previews', { case_id: doc.id, answers: requiredAnswers(doc) }],
    ];
    const before = await caseCount();
    for (const [method, url, payload] of calls) {
      const asUser = await call(method, url, { headers: asParticipant, payload });
      expect({ call: `${method} ${url}`, status: asUser.statusCode, code: asUser.json().errorCode }).toEqual({
        call: `${method} ${url}`,
        status: 403,
        code: 'FORBIDDEN',
      });
      const anonymous = await call(method, url, { headers: {}, payload });
      expect({ call: `${method} ${url}`, status: anonymous.statusCode, code: anonymous.json().errorCode }).toEqual({
        call: `${method} ${url}`,
        status: 401,
        code: 'NOT_AUTHORIZED',
      });
    }
    expect(await caseCount()).toBe(before);
    expect(await getCase(doc.id)).toEqual(doc);
    // The participant account cannot sign in as staff at all.
    expect(
      (
        await call('POST', '/auth/admin/login', {
          headers: {},
          payload: { email: participant.email, password: 'correct-horse-6' },
        })
      ).statusCode,
    ).toBe(401);
  });
});

/* ---------- 6. duplicates ---------- */
