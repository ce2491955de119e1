import { describe, expect, it } from 'vitest';
import { MAX_RESOURCE_BYTES, type Resource, type ResourceFileDetails, type ResourcePage } from '@pss/contract';
import { expectError, fieldIssues, fieldsOf } from '../../../test/kit.js';
import { resourceSetup } from '../../../test/resource-calls.js';
import { htmlPage, jpegImage, pagedPdf, pngImage, video } from '../../../test/resource-files.js';
import { smallPdf } from '../../../test/summary-files.js';

const { call, ctx, f, pathOf, storedFiles, upload, uploaded } = resourceSetup();

const total = async () => (await call('GET', '/resource-library?limit=1')).json<ResourcePage>().total;

/** A refused upload: a catalogue error, and nothing stored nor listed. */
async function expectRefused(content: Buffer | string, name: string, status: number, code: string) {
  const [before, files] = [await total(), await storedFiles()];
  const response = await upload(content, name);
  expectError(response, status, code);
  expect(await total()).toBe(before);
  expect(await storedFiles()).toEqual(files);
  return response;
}

describe('uploading resources', () => {
  it('recognises PDF, PNG, JPEG, MP4 and MOV by their bytes and names each resource after its file', async () => {
    const pdf = await uploaded(pagedPdf(3), 'Chest pain guideline.pdf');
    expect(pdf).toMatchObject({
      name: 'Chest pain guideline',
      source_type: 'PDF',
      link: null,
      attachment_status: 'NOT_ATTACHED',
      file: { file_name: 'Chest pain guideline.pdf', content_type: 'application/pdf', thumbnail_status: 'PENDING' },
    });
    expect((await uploaded(await pngImage(), 'x-ray.png')).file?.content_type).toBe('image/png');
    const jpeg = await uploaded(await jpegImage(), 'ECG'); // no extension: the bytes say what it is
    expect(jpeg).toMatchObject({ source_type: 'IMAGE', file: { file_name: 'ECG.jpg', content_type: 'image/jpeg' } });
    expect((await uploaded(video('mp4', 12.5), 'talk.mp4')).source_type).toBe('VIDEO');
    expect((await uploaded(video('mov', 3), 'demo.MOV')).file?.content_type).toBe('video/quicktime');
  });

  it('makes thumbnails in the background: an image, a PDF’s first page; a video’s length', async () => {
    const pdf = await uploaded(pagedPdf(4), 'four pages.pdf');
    const png = await uploaded(await pngImage(800, 600), 'wide.png');
    const mp4 = await uploaded(video('mp4', 95.25), 'lecture.mp4');
    await ctx.app.resources.runPending();

    const pdfDetails = (await call('GET', `/resource-library/file/${pdf.id}/details`)).json<ResourceFileDetails>();
    expect(pdfDetails).toMatchObject({ page_count: 4, thumbnail_status: 'READY' });
    const thumbnail = await call('GET', pathOf(pdfDetails.thumbnail.url!), { headers: {} });
    expect(thumbnail.statusCode).toBe(200);
    expect(thumbnail.headers['content-type']).toBe('image/webp');
    expect(thumbnail.rawPayload.subarray(8, 12).toString('latin1')).toBe('WEBP');

    const image = (await call('GET', `/resource-library/${png.id}`)).json<Resource>();
    expect(image.file).toMatchObject({ width: 800, height: 600, thumbnail_status: 'READY' });
    const movie = (await call('GET', `/resource-library/${mp4.id}`)).json<Resource>();
    expect(movie.file).toMatchObject({ duration_seconds: 95.25, thumbnail_status: 'NONE' });
    const none = (await call('GET', `/resource-library/file/${mp4.id}/thumbnail-link`)).json();
    expect(none).toEqual({ url: null, expires_at: null, thumbnail_status: 'NONE' });
  });

  it('marks a file it cannot draw FAILED, and the resource stays usable', async () => {
    // A PDF header and end, with nothing readable between.
    const broken = await uploaded(Buffer.from('%PDF-1.7\n garbage \n%%EOF\n', 'latin1'), 'broken.pdf');
    await ctx.app.resources.runPending();
    const details = (await call('GET', `/resource-library/file/${broken.id}/details`)).json<ResourceFileDetails>();
    expect(details.thumbnail).toEqual({ url: null, expires_at: null, thumbnail_status: 'FAILED' });
    expect((await call('GET', pathOf(details.view.url), { headers: {} })).statusCode).toBe(200);
  });

  it('refuses a renamed file: an HTML page called .pdf, a PNG called .mp4, a PDF called .png', async () => {
    const html = await expectRefused(htmlPage, 'guideline.pdf', 400, 'VALIDATION_ERROR');
    expect(fieldsOf(html)).toEqual(['body.file']);
    expect(fieldIssues(html)[0]?.message).toMatch(/PDF, a JPEG or PNG image, or an MP4 or MOV video/);
    const png = await expectRefused(await pngImage(), 'lecture.mp4', 400, 'VALIDATION_ERROR');
    expect(fieldIssues(png)[0]?.message).toMatch(/named "\.mp4" but its content is a PNG image/);
    await expectRefused(smallPdf(), 'scan.png', 400, 'VALIDATION_ERROR');
    await expectRefused(await pngImage(), 'page.html', 400, 'VALIDATION_ERROR');
  });

  it('refuses polyglots: markup in a PDF’s head, a page after a PNG’s end, data after a video’s atoms', async () => {
    const pdfWithPage = Buffer.concat([
      Buffer.from('%PDF-1.4\n%<html><script>alert(1)</script>\n', 'latin1'),
      smallPdf().subarray(9),
    ]);
    const marked = await expectRefused(pdfWithPage, 'poly.pdf', 400, 'VALIDATION_ERROR');
    expect(fieldIssues(marked)[0]?.message).toMatch(/web page markup/);
    const pngThenPage = Buffer.concat([await pngImage(), Buffer.from(htmlPage)]);
    const appended = await expectRefused(pngThenPage, 'poly.png', 400, 'VALIDATION_ERROR');
    expect(fieldIssues(appended)[0]?.message).toMatch(/two files in one/);
    const jpegThenZip = Buffer.concat([await jpegImage(), Buffer.from('PK\u0003\u0004 zip entries')]);
    await expectRefused(jpegThenZip, 'poly.jpg', 400, 'VALIDATION_ERROR');
    await expectRefused(Buffer.concat([smallPdf(), Buffer.from(htmlPage)]), 'after.pdf', 400, 'VALIDATION_ERROR');
    await expectRefused(Buffer.concat([video('mp4', 2), Buffer.from('trailing')]), 'v.mp4', 400, 'VALIDATION_ERROR');
  });

  it('refuses a file larger than its kind allows with PAYLOAD_TOO_LARGE', async () => {
    const png = await pngImage();
    const big = Buffer.concat([
      png.subarray(0, png.length - 12),
      Buffer.alloc(MAX_RESOURCE_BYTES.IMAGE),
      png.subarray(-12),
    ]);
    const refused = await expectRefused(big, 'huge.png', 413, 'PAYLOAD_TOO_LARGE');
    expect(refused.json().message).toMatch(/PNG image may be at most 10 MB/);
  });

  it('refuses a malformed upload, one without a file, and what is not multipart', async () => {
    const broken = await call('POST', '/resource-library/upload', {
      headers: { ...f.asSuperadmin, 'content-type': 'multipart/form-data; boundary=xyz' },
      payload: 'no parts here at all',
    });
    expectError(broken, 400, 'VALIDATION_ERROR');
    const json = await call('POST', '/resource-library/upload', { payload: { file: 'x' } });
    expectError(json, 400, 'VALIDATION_ERROR');
    expect(fieldsOf(json)).toEqual(['body.file']);
    await expectRefused(Buffer.alloc(0), 'empty.pdf', 400, 'VALIDATION_ERROR');
  });

  it('is the superadmins’: administrators and participants are refused, anonymous callers told to sign in', async () => {
    for (const headers of [f.asAdminA, f.asAdminB]) {
      const response = await upload(smallPdf(), 'a.pdf', headers);
      expectError(response, 403, 'FORBIDDEN');
    }
    expectError(await upload(smallPdf(), 'a.pdf', {}), 401, 'NOT_AUTHORIZED');
  });
});
