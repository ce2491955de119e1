import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { twoClients, type Headers } from './fixtures.js';
import { createTestContext, type TestContext } from './test-app.js';

// Regressions the fuzz tests found: each of these answered 500 before.
let ctx: TestContext;
let asSuperadmin: Headers;
beforeAll(async () => {
  ctx = await createTestContext();
  ({ asSuperadmin } = await twoClients(ctx));
});
afterAll(() => ctx.close());

const fieldsOf = (body: string) =>
  (JSON.parse(body) as { details?: { fields?: { field: string }[] } }).details?.fields?.map((f) => f.field) ?? [];

describe('the NUL character', () => {
  it('in a sign-in body is refused as a validation error, naming the field', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/admin/login',
      payload: { email: 'someone\u0000@example.test', password: 'whatever-1' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errorCode).toBe('VALIDATION_ERROR');
    expect(fieldsOf(response.body)).toEqual(['body.email']);
  });

  it('in a search parameter, a path parameter or a nested field is refused', async () => {
    const search = await ctx.app.inject({ url: '/api/clients?search=a%00b', headers: asSuperadmin });
    expect(search.statusCode).toBe(400);
    expect(fieldsOf(search.body)).toEqual(['querystring.search']);

    const cap = await ctx.app.inject({ url: '/api/clients/cap/A%00B/status', headers: asSuperadmin });
    expect(cap.statusCode).toBe(400);
    expect(fieldsOf(cap.body)).toEqual(['params.id']);

    const email = await ctx.app.inject({ method: 'POST', url: '/api/auth/verify/email', payload: { email: '\u0000' } });
    expect(email.statusCode).toBe(400);
  });
});

describe('what the router and the upload parser refuse', () => {
  it('a path parameter past the router’s length limit is 404 NOT_FOUND', async () => {
    const response = await ctx.app.inject({ url: `/api/clients/${'x'.repeat(500)}`, headers: asSuperadmin });
    expect(response.statusCode).toBe(404);
    expect(response.json().errorCode).toBe('NOT_FOUND');
  });

  it('a multipart body without a boundary is a validation error', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/cases/rtf',
      headers: { ...asSuperadmin, 'content-type': 'multipart/form-data' },
      payload: 'not a multipart body',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errorCode).toBe('VALIDATION_ERROR');
  });
});
