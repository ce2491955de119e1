import { describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import type { EmailTemplate } from '@pss/contract';
import { clients, resources } from '../src/db/schema/index.js';
import { emailCalls } from './email-calls.js';
import { call, expectError, fieldIssues, newProject, twoClientsContext, type Reply } from './kit.js';

/**
 * The one text rule (spec §5), through the calls: a required text that is missing is
 * FIELD_REQUIRED, one of whitespace only (rich text: once empty paragraphs are stripped) is
 * BLANK_TEXT, and nothing is saved. The rule itself is tested in the contract
 * (text-fields.test.ts); these check that the calls use it.
 */

const { ctx, f } = twoClientsContext();

const codeAt = (response: Reply, field: string) =>
  fieldIssues(response).find((issue) => issue.field === field)?.errorCode;

describe('a required text of spaces is BLANK_TEXT, and nothing is saved', () => {
  it('refuses an email body of empty paragraphs and keeps the saved template', async () => {
    const p = await newProject(ctx, f.asSuperadmin, f.clientA.id);
    const emails = emailCalls(ctx);
    const before = await emails.emailOf(p.id, 'initial', f.asAdminA);
    const texts = { subject: 'Round 2', button_text: 'Open', dashboard_url_text: '', send_mode: 'MANUAL' };
    for (const body of ['<p></p><p> </p>', '<p><br></p><p>&nbsp;</p>']) {
      const refused = await call(ctx, 'POST', `/projects/${before.id}/email`, f.asAdminA, { ...texts, body });
      expectError(refused, 400, 'VALIDATION_ERROR');
      expect(codeAt(refused, 'body.body'), body).toBe('BLANK_TEXT');
    }
    const empty = await call(ctx, 'POST', `/projects/${before.id}/email`, f.asAdminA, { ...texts, body: '' });
    expect(codeAt(empty, 'body.body')).toBe('FIELD_REQUIRED');
    const spaces = await call(ctx, 'POST', `/projects/${before.id}/email`, f.asAdminA, {
      ...texts,
      subject: '   ',
      body: '<p>Hello</p>',
    });
    expect(codeAt(spaces, 'body.subject')).toBe('BLANK_TEXT');
    const after: EmailTemplate = await emails.emailOf(p.id, 'initial', f.asAdminA);
    expect(after).toEqual(before);
  });

  it('refuses a client name of spaces (and says FIELD_REQUIRED for none)', async () => {
    const clientCount = async () => (await ctx.db.select({ n: count() }).from(clients))[0]!.n;
    const before = await clientCount();
    const spaces = await call(ctx, 'POST', '/clients', f.asSuperadmin, { name: '   ' });
    expectError(spaces, 400, 'VALIDATION_ERROR');
    expect(codeAt(spaces, 'body.name')).toBe('BLANK_TEXT');
    expect(codeAt(await call(ctx, 'POST', '/clients', f.asSuperadmin, { name: '' }), 'body.name')).toBe(
      'FIELD_REQUIRED',
    );
    expect(codeAt(await call(ctx, 'POST', '/clients', f.asSuperadmin, {}), 'body.name')).toBe('FIELD_REQUIRED');
    expect(await clientCount()).toBe(before);
  });

  it('refuses a text resource whose text is spaces, on create and on edit', async () => {
    const resourceCount = async () => (await ctx.db.select({ n: count() }).from(resources))[0]!.n;
    const before = await resourceCount();
    const create = (details: string) =>
      call(ctx, 'POST', '/resource-library', f.asSuperadmin, { name: 'Notes', source_type: 'TEXT', details });
    expect(codeAt(await create(' \n '), 'body.details')).toBe('BLANK_TEXT');
    expect(codeAt(await create(''), 'body.details')).toBe('FIELD_REQUIRED');
    expect(await resourceCount()).toBe(before);

    const made = await create('  Chapter 4.  ');
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json<{ details: string }>().details).toBe('Chapter 4.');
    const id = made.json<{ id: string }>().id;
    const edit = await call(ctx, 'PUT', `/resource-library/${id}`, f.asSuperadmin, { name: 'Notes', details: '   ' });
    expectError(edit, 400, 'VALIDATION_ERROR');
    expect(codeAt(edit, 'body.details')).toBe('BLANK_TEXT');
    const read = await call(ctx, 'GET', `/resource-library/${id}`, f.asSuperadmin);
    expect(read.json<{ details: string }>().details).toBe('Chapter 4.');
  });

  it.each([
    ['a project name', 'POST', '/projects', (clientId: string) => ({ client_id: clientId, name: ' \t ' }), 'body.name'],
    [
      'a module name',
      'POST',
      '/module-library',
      () => ({ name: '  ', disease_types: ['D'], question_categories: ['Q'] }),
      'body.name',
    ],
    ['a resource category', 'POST', '/resource-library/categories', () => ({ name: '   ' }), 'body.name'],
    ['a survey template name', 'POST', '/survey-templates', () => ({ name: '  ', type: 'END' }), 'body.name'],
    [
      'a staff user’s first name',
      'POST',
      '/users',
      () => ({ email: 'x@example.org', first_name: '  ', last_name: 'Doe', role: 'SUPERADMIN', password: 'secret99' }),
      'body.first_name',
    ],
  ] as const)('refuses %s of spaces', async (_what, method, url, body, field) => {
    const refused = await call(ctx, method, url, f.asSuperadmin, body(f.clientA.id));
    expectError(refused, 400, 'VALIDATION_ERROR');
    expect(codeAt(refused, field)).toBe('BLANK_TEXT');
  });
});
