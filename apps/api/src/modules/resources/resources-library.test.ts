import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Resource, ResourceCategory, ResourceFileDetails, ResourcePage } from '@pss/contract';
import { expectError, fieldsOf, filterQuery } from '../../../test/kit.js';
import { resourceSetup } from '../../../test/resource-calls.js';
import { resources } from '../../db/schema/resources.js';
import { pngImage } from '../../../test/resource-files.js';
import { smallPdf } from '../../../test/summary-files.js';

const {
  attach,
  call,
  ctx,
  deleteSelection,
  draftCase,
  f,
  get,
  pathOf,
  storedFiles,
  textResource,
  uploaded,
  urlResource,
} = resourceSetup();

describe('links and texts', () => {
  it('creates a URL resource with categories and reads it back', async () => {
    const category = (
      await call('POST', '/resource-library/categories', { payload: { name: 'Cardiology' } })
    ).json<ResourceCategory>();
    const created = await urlResource({
      name: 'ESC guideline',
      link: 'https://Example.org/esc',
      category_ids: [category.id],
    });
    expect(created).toMatchObject({
      name: 'ESC guideline',
      source_type: 'URL',
      link: 'https://example.org/esc',
      details: '',
      file: null,
      categories: [{ id: category.id, name: 'Cardiology' }],
      attachment_status: 'NOT_ATTACHED',
      attached_case_count: 0,
    });
    expect(await get(created.id)).toEqual(created);
  });

  it('refuses a duplicate URL with URL_ALREADY_EXISTS, as written differently too, on create, edit and duplicate', async () => {
    const first = await urlResource({ link: 'https://example.org/same' });
    for (const link of ['https://example.org/same', 'HTTPS://EXAMPLE.ORG/same', ' https://example.org/same ']) {
      const again = await call('POST', '/resource-library', { payload: { name: 'Again', source_type: 'URL', link } });
      expectError(again, 409, 'URL_ALREADY_EXISTS');
      expect(again.json().message).toContain('https://example.org/same');
    }
    const other = await urlResource();
    const edit = await call('PUT', `/resource-library/${other.id}`, {
      payload: { name: other.name, link: 'https://example.org/same' },
    });
    expectError(edit, 409, 'URL_ALREADY_EXISTS');
    expect((await get(other.id)).link).toBe(other.link);
    expectError(await call('POST', `/resource-library/${first.id}/duplicate`), 409, 'URL_ALREADY_EXISTS');
    const copy = await call('POST', `/resource-library/${first.id}/duplicate`, {
      payload: { link: 'https://example.org/other' },
    });
    expect(copy.statusCode).toBe(201);
    expect(copy.json<Resource>()).toMatchObject({ name: `Copy of ${first.name}`, duplicate_of: first.id });
  });

  it('refuses bad bodies naming each field, changing nothing', async () => {
    const before = (await call('GET', '/resource-library?limit=1')).json<ResourcePage>().total;
    const cases: [object, string[]][] = [
      [{ name: '', source_type: 'URL', link: 'https://example.org/x' }, ['body.name']],
      [{ name: 'No link', source_type: 'URL' }, ['body.link']],
      [{ name: 'Bad link', source_type: 'URL', link: 'javascript:alert(1)' }, ['body.link']],
      [{ name: 'Empty text', source_type: 'TEXT' }, ['body.details']],
      [{ name: 'File', source_type: 'PDF' }, ['body.source_type']],
      [{ name: 'Cat', source_type: 'TEXT', details: 'x', category_ids: ['nope'] }, ['body.category_ids.0']],
      [{ name: 'Extra', source_type: 'TEXT', details: 'x', colour: 'red' }, ['body']],
    ];
    for (const [payload, fields] of cases) {
      const response = await call('POST', '/resource-library', { payload });
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(fieldsOf(response), JSON.stringify(payload)).toEqual(fields);
    }
    const unknownCategory = await call('POST', '/resource-library', {
      payload: { name: 'Cat', source_type: 'TEXT', details: 'x', category_ids: [crypto.randomUUID()] },
    });
    expect(fieldsOf(unknownCategory)).toEqual(['body.category_ids']);
    expect((await call('GET', '/resource-library?limit=1')).json<ResourcePage>().total).toBe(before);
  });

  it('edits name, details and categories; a link only on a URL resource', async () => {
    const text = await textResource('Notes', 'First text');
    const category = (
      await call('POST', '/resource-library/categories', { payload: { name: 'Reading' } })
    ).json<ResourceCategory>();
    const edited = await call('PUT', `/resource-library/${text.id}`, {
      payload: { name: 'Notes v2', details: 'Second text', category_ids: [category.id] },
    });
    expect(edited.json<Resource>()).toMatchObject({ name: 'Notes v2', details: 'Second text', categories: [category] });
    const linked = await call('PUT', `/resource-library/${text.id}`, {
      payload: { name: 'Notes', details: 'x', link: 'https://example.org/notes' },
    });
    expect(fieldsOf(linked)).toEqual(['body.link']);
    expectError(
      await call('PUT', `/resource-library/${crypto.randomUUID()}`, { payload: { name: 'x' } }),
      404,
      'NOT_FOUND',
    );
  });

  it('finds or makes a category regardless of case', async () => {
    const a = (await call('POST', '/resource-library/categories', { payload: { name: 'Imaging' } })).json();
    const b = (await call('POST', '/resource-library/categories', { payload: { name: 'IMAGING' } })).json();
    expect(b).toEqual(a);
    const list = (await call('GET', '/resource-library/categories', { headers: f.asAdminB })).json<{
      items: ResourceCategory[];
    }>();
    expect(list.items.filter((c) => c.name.toLowerCase() === 'imaging')).toHaveLength(1);
  });
});

describe('the list, the export and duplicates', () => {
  it('searches, filters by type and category, sorts and pages', async () => {
    const tag = Math.random().toString(36).slice(2, 7);
    const category = (
      await call('POST', '/resource-library/categories', { payload: { name: `Tagged ${tag}` } })
    ).json<ResourceCategory>();
    const text = await textResource(`Zeta ${tag}`, 'text');
    await call('PUT', `/resource-library/${text.id}`, {
      payload: { name: text.name, details: 'text', category_ids: [category.id] },
    });
    const pdf = await uploaded(smallPdf(), `Alpha ${tag}.pdf`);
    const list = async (q: string) =>
      (await call('GET', `/resource-library?search=${tag}&${q}`)).json<ResourcePage>().items.map((r) => r.name);
    expect(await list('sort=name:ASC')).toEqual([`Alpha ${tag}`, `Zeta ${tag}`]);
    expect(await list('sort=name:DESC')).toEqual([`Zeta ${tag}`, `Alpha ${tag}`]);
    expect(await list(filterQuery({ source_type: ['PDF'] }))).toEqual([pdf.name]);
    expect(await list(filterQuery({ category_id: category.id }))).toEqual([text.name]);
    expect(await list('limit=1&page=2')).toEqual([`Zeta ${tag}`]);
    expectError(await call('GET', '/resource-library?sort=size:ASC'), 400, 'VALIDATION_ERROR');
    expectError(
      await call('GET', `/resource-library?${filterQuery({ source_type: ['DOC'] })}`),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('exports what the list shows as CSV and XLSX', async () => {
    const tag = Math.random().toString(36).slice(2, 7);
    await urlResource({ name: `=HYPERLINK ${tag}`, link: `https://example.org/${tag}` });
    const csv = await call('GET', `/resource-library/export?search=${tag}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(/attachment; filename="resource-library-2026-03-02\.csv"/);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Name,Type,Categories,Link,File name,File type,Size (bytes),Attachment status,Attached cases,Details,Created,Updated',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`'=HYPERLINK ${tag},URL,,https://example.org/${tag}`);
    const xlsx = await call('GET', `/resource-library/export?format=xlsx&search=${tag}`);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expectError(await call('GET', '/resource-library/export?format=pdf'), 400, 'VALIDATION_ERROR');
    expectError(await call('GET', '/resource-library/export?filter=nope'), 400, 'VALIDATION_ERROR');
  });

  it('duplicates a file resource with its own copy of the file and thumbnail', async () => {
    const png = await uploaded(await pngImage(), 'scan.png');
    await ctx.app.resources.runPending();
    const copy = (
      await call('POST', `/resource-library/${png.id}/duplicate`, { payload: { name: 'Scan (copy)' } })
    ).json<Resource>();
    expect(copy).toMatchObject({ name: 'Scan (copy)', source_type: 'IMAGE', duplicate_of: png.id });
    expect(copy.file?.thumbnail_status).toBe('READY');
    // Deleting the original leaves the copy's file.
    expect((await deleteSelection({ ids: [png.id] })).statusCode).toBe(200);
    const details = (await call('GET', `/resource-library/file/${copy.id}/details`)).json<ResourceFileDetails>();
    expect((await call('GET', pathOf(details.view.url), { headers: {} })).statusCode).toBe(200);
    expect((await call('GET', pathOf(details.thumbnail.url!), { headers: {} })).statusCode).toBe(200);
  });
});

describe('deleting by selection', () => {
  it('deletes chosen ids and their files', async () => {
    const pdf = await uploaded(smallPdf(), 'gone.pdf');
    // This file's own name in storage: the test processes share one data directory, so the
    // other test files' uploads come and go meanwhile and a count of every file would not do.
    const [row] = await ctx.db.select({ file: resources.file }).from(resources).where(eq(resources.id, pdf.id));
    const stored = row!.file!.key.replace(/^resources\//, '');
    expect(await storedFiles()).toContain(stored);
    const response = await deleteSelection({ ids: [pdf.id] });
    expect(response.json()).toEqual({ ids: [pdf.id] });
    expectError(await call('GET', `/resource-library/${pdf.id}`), 404, 'NOT_FOUND');
    expect(await storedFiles()).not.toContain(stored);
  });

  it('deletes everything matching a search except the exceptions', async () => {
    const tag = Math.random().toString(36).slice(2, 7);
    const [a, b, c] = [
      await textResource(`${tag} a`, 'x'),
      await textResource(`${tag} b`, 'x'),
      await textResource(`${tag} c`, 'x'),
    ];
    const response = await deleteSelection({ all: true, search: tag, except: [b.id] });
    expect(response.json<{ ids: string[] }>().ids.sort()).toEqual([a.id, c.id].sort());
    expect((await get(b.id)).id).toBe(b.id);
  });

  it('refuses an attached resource, naming its cases, and deletes nothing of the selection', async () => {
    const attached = await textResource('Attached text', 'x');
    const loose = await textResource('Loose text', 'x');
    const { caseId } = await draftCase();
    expect((await attach(caseId, [attached.id])).statusCode).toBe(200);
    const refused = await deleteSelection({ ids: [loose.id, attached.id] });
    expectError(refused, 409, 'RESOURCE_ATTACHED_DELETE_FORBIDDEN');
    expect(refused.json().message).toBe(
      'Attached resources cannot be deleted; remove them from their cases first: "Attached text" (attached to "Chest pain").',
    );
    expect(refused.json().details).toMatchObject({
      resources: [{ id: attached.id, name: 'Attached text', cases: [{ id: caseId, name: 'Chest pain' }] }],
    });
    expect((await get(loose.id)).id).toBe(loose.id);
    // Taken off its case, it goes.
    expect((await attach(caseId, [])).statusCode).toBe(200);
    expect((await deleteSelection({ ids: [attached.id] })).statusCode).toBe(200);
  });

  it('refuses a malformed selection and an unknown id', async () => {
    expectError(await call('DELETE', '/resource-library'), 400, 'REQUIRED_PARAMETER_MISSING');
    expectError(await call('DELETE', '/resource-library?filter=%7Bnope'), 400, 'VALIDATION_ERROR');
    expectError(await deleteSelection({ ids: [] }), 400, 'VALIDATION_ERROR');
    expectError(await deleteSelection({ ids: [crypto.randomUUID()] }), 404, 'NOT_FOUND');
  });
});
