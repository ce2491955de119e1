import { describe, expect, it } from 'vitest';
import { multipartFile } from '../../../test/fixtures.js';
import { expectError, fieldsOf } from '../../../test/kit.js';
import { JPEG_HEAD, onePixelPng } from '../../../test/images.js';
import { casesSetup } from '../../../test/case-calls.js';

const { f, call, projectA, createCase, getCase, caseCount, uploadImage } = casesSetup();

describe('the patient image', () => {
  it('stores a PNG by its content and serves the same bytes', async () => {
    const p = await projectA();
    const doc = await createCase(p);
    const png = onePixelPng();
    const uploaded = await uploadImage(doc.id, png, 'scan.PNG');
    expect(uploaded.statusCode).toBe(200);
    expect(uploaded.json()).toMatchObject({ id: doc.id, has_image: true });

    const image = await call('GET', `/cases/${doc.id}/image`);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(image.rawPayload.equals(png)).toBe(true);
  });

  it('takes a JPEG whatever its name, replacing the image there was', async () => {
    const p = await projectA();
    const doc = await createCase(p);
    expect((await uploadImage(doc.id, onePixelPng())).statusCode).toBe(200);
    const uploaded = await uploadImage(doc.id, JPEG_HEAD, 'photo.bin');
    expect(uploaded.statusCode).toBe(200);
    const image = await call('GET', `/cases/${doc.id}/image`);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect(image.rawPayload.equals(JPEG_HEAD)).toBe(true);
  });

  it('refuses a program renamed photo.png and a file over 5 MB, keeping the image there was', async () => {
    const p = await projectA();
    const doc = await createCase(p);
    const png = onePixelPng();
    expect((await uploadImage(doc.id, png)).statusCode).toBe(200);
    const stored = await getCase(doc.id);

    const exe = Buffer.concat([
      Buffer.from('MZ', 'latin1'),
      Buffer.from([0x90, 0, 3, 0, 0, 0, 4, 0]),
      Buffer.alloc(128),
    ]);
    const renamed = await uploadImage(doc.id, exe, 'photo.png');
    expectError(renamed, 400, 'VALIDATION_ERROR');
    expect(fieldsOf(renamed)).toEqual(['body.file']);

    const big = Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024)]);
    expectError(await uploadImage(doc.id, big), 413, 'PAYLOAD_TOO_LARGE');
    expectError(await call('POST', `/cases/${doc.id}/image`, { payload: { file: 'x' } }), 400, 'VALIDATION_ERROR');

    expect(await getCase(doc.id)).toEqual(stored);
    expect(stored.has_image).toBe(true);
    expect((await call('GET', `/cases/${doc.id}/image`)).rawPayload.equals(png)).toBe(true);
  });

  it('removes the image; a case without one has no image to get', async () => {
    const p = await projectA();
    const doc = await createCase(p);
    expectError(await call('GET', `/cases/${doc.id}/image`), 404, 'NOT_FOUND');
    expect((await uploadImage(doc.id, onePixelPng())).statusCode).toBe(200);
    const removed = await call('DELETE', `/cases/${doc.id}/image`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ has_image: false });
    expect((await getCase(doc.id)).has_image).toBe(false);
    expectError(await call('GET', `/cases/${doc.id}/image`), 404, 'NOT_FOUND');
  });
});

/* ---------- 10. RTF ---------- */

describe('reading an RTF file', () => {
  const readRtf = (content: string | Buffer, fileName = 'case.rtf') => {
    const file = multipartFile(content, fileName);
    return call('POST', '/cases/rtf', { headers: { ...f.asAdminA, ...file.headers }, payload: file.payload });
  };

  it('fills the case fields from labelled paragraphs, escaping markup typed in the text', async () => {
    const before = await caseCount();
    const rtf = [
      '{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0 Calibri;}}',
      "\\pard Case name: Chest pain in a caf\\'e9 owner\\par",
      "Patient name: Ren\\'e9e Dupont\\par",
      'Age: 54\\par',
      'Reason for encounter: Crushing chest pain <script>alert(1)</script>\\par',
      'Physical examination:\\par',
      'BP 150/90, HR 110.\\par',
      'Sweaty & pale.\\par',
      '}',
    ].join('\r\n');
    const response = await readRtf(rtf);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      name: 'Chest pain in a café owner',
      patient_name: 'Renée Dupont',
      patient_age: 54,
      reason_for_encounter: '<p>Crushing chest pain &lt;script&gt;alert(1)&lt;/script&gt;</p>',
      details_sections: [{ name: 'Physical examination', text: '<p>BP 150/90, HR 110.</p><p>Sweaty &amp; pale.</p>' }],
    });
    // Nothing is saved.
    expect(await caseCount()).toBe(before);
  });

  it('refuses a PNG renamed .rtf and a request without a file', async () => {
    const response = await readRtf(onePixelPng(), 'case.rtf');
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(fieldsOf(response)).toEqual(['body.file']);
    expectError(await call('POST', '/cases/rtf', { payload: {} }), 400, 'VALIDATION_ERROR');
    expectError(await call('POST', '/cases/rtf', { headers: {} }), 401, 'NOT_AUTHORIZED');
  });
});
