import { crc32, deflateSync } from 'node:zlib';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { demoParticipantLinkPath, demoSignIns, signIn } from './fixtures';
import { expectNoViolations } from './page-checks';

const run = Date.now().toString(36).slice(-5);
const PARTICIPANT = 'james.chen@northwind.demo.local';
const pdfName = `Heart failure handout ${run}`;
const imageName = `Chest X-ray ${run}`;
const caseName = `Breathless on the stairs ${run}`;

/** A real PDF of `pages` pages (a cross-reference table included), each page saying its number. */
function pdfOf(pages: number): Buffer {
  const objects: string[] = [];
  const kids: string[] = [];
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
  for (let i = 0; i < pages; i++) {
    const page = 4 + i * 2;
    const stream = `BT /F1 36 Tf 72 700 Td (Handout page ${i + 1}) Tj ET 0.8 0.2 0.2 rg 72 100 400 450 re f`;
    objects[page] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${page + 1} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`;
    objects[page + 1] = `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
    kids.push(`${page} 0 R`);
  }
  objects[2] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${pages} >>`;
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = Buffer.byteLength(body, 'latin1');
    body += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) body += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** A PNG of one colour, `width` × `height`. */
function pngOf(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, 'latin1'), data])));
    return Buffer.concat([length, Buffer.from(type, 'latin1'), data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0)]);
  for (let x = 0; x < width; x++) row.set([40, 110, 190], 1 + x * 3);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/**
 * A project of Northwind Health with a round running now, a complete draft case placed in it,
 * and the demo participant James Chen assigned to it (through the real participant import).
 */
async function seedProject(request: APIRequestContext) {
  const { superadmin } = demoSignIns();
  const login = await request.post('/api/auth/admin/login', { data: superadmin });
  const headers = { authorization: `Bearer ${(await login.json()).access_token as string}` };
  const clients = await (await request.get('/api/clients?search=Northwind', { headers })).json();
  const clientId = clients.items[0].id as string;
  const created = await request.post('/api/projects', {
    headers,
    data: {
      client_id: clientId,
      name: `Resources pilot ${run}`,
      disease_types: ['Heart Failure'],
      question_categories: ['Diagnosis'],
      seasons: [{ name: 'Resource Season', rounds: [{ number: 1, start_date: day(-2), end_date: day(12) }] }],
    },
  });
  expect(created.status()).toBe(201);
  const project = await created.json();
  const draft = await request.post('/api/cases', {
    headers,
    data: { project_id: project.id, name: caseName, disease_type_id: project.disease_types[0].id },
  });
  const caseId = (await draft.json()).id as string;
  const saved = await request.put(`/api/cases/${caseId}`, {
    headers,
    data: {
      name: caseName,
      disease_type_id: project.disease_types[0].id,
      patient_name: 'Walter Price',
      patient_age: 71,
      reason_for_encounter: '<p>Short of breath climbing one flight of stairs.</p>',
      season_id: project.seasons[0].id,
      round_number: 1,
      feedback_type: 'PERSONALIZED_FEEDBACK',
      references: '',
      test_results: '',
      explanation: '<p>Fluid overload.</p>',
      details_sections: [],
      groupers: [],
      questions: [
        {
          grouper_id: null,
          type: 'MULTI_ONE',
          text: 'Most likely cause?',
          text_before: '',
          required: true,
          category_id: project.question_categories[0].id,
          choices: [
            { text: 'Heart failure', marked_as: 'NECESSARY' },
            { text: 'Anxiety', marked_as: 'UNNECESSARY' },
          ],
          allow_other: false,
          allow_none_of_below: false,
        },
      ],
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const csv =
    'user_id,salutation,first_name,last_name,email,role,profession,season,rounds,start_date\n' +
    `NW-1002,Dr.,James,Chen,${PARTICIPANT},USER,DO,Resource Season,1,${day(-2)}\n`;
  const upload = await request.post(`/api/projects/${project.id}/upload`, {
    headers,
    multipart: { file: { name: 'participants.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) } },
  });
  expect(upload.status(), await upload.text()).toBe(202);
  await expect
    .poll(async () => (await (await request.get(`/api/projects/${project.id}/import`, { headers })).json()).state, {
      timeout: 20_000,
    })
    .toBe('COMPLETE');
  return { clientId, projectId: project.id as string, caseId };
}

async function addFile(page: Page, name: string, file: { name: string; mimeType: string; buffer: Buffer }) {
  await page.goto('/resource-library');
  await page.getByRole('link', { name: 'New resource' }).click();
  await expect(page.getByRole('heading', { name: 'New resource' })).toBeVisible();
  await expectNoViolations(page);
  // The dropzone's own file input takes the file (as a drop or the file dialog would give it),
  // without waiting on a native dialog that a loaded machine may open late.
  await page.getByTestId('resource-dropzone').locator('input[type="file"]').setInputFiles(file);
  await expect(page.getByText(`Chosen: ${file.name}`)).toBeVisible();
  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Add to the library' }).click();
  await expect(page.getByRole('heading', { name, level: 2 })).toBeVisible();
}

test.describe.configure({ mode: 'serial' });

test('resources are uploaded with thumbnails, attached to a case from the picker, refused deletion while attached, and read by the participant', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const seeded = await seedProject(request);
  await signIn(page, 'Provider employee', demoSignIns().superadmin);

  // A PDF and an image: the details page previews each; the list shows their thumbnails once made.
  await addFile(page, pdfName, { name: 'handout.pdf', mimeType: 'application/pdf', buffer: pdfOf(3) });
  await expect(page.getByTestId('pdf-pages').locator('canvas[data-page="1"]')).toBeVisible();
  await expect(page.getByText(`${pdfName} (PDF, 3 pages)`)).toBeVisible();
  await addFile(page, imageName, { name: 'x-ray.png', mimeType: 'image/png', buffer: pngOf(320, 240) });
  await expect(page.getByTestId('resource-image')).toBeVisible();
  await expect(page.getByTestId('attachment-status')).toHaveText('Not attached');

  await page.goto(`/resource-library?search=${run}`);
  const rows = page.getByRole('row');
  await expect(rows.filter({ hasText: pdfName }).getByRole('img', { name: `Thumbnail of ${pdfName}` })).toBeVisible({
    timeout: 20_000,
  });
  await expect(
    rows.filter({ hasText: imageName }).getByRole('img', { name: `Thumbnail of ${imageName}` }),
  ).toBeVisible();
  const thumbnail = rows.filter({ hasText: pdfName }).getByRole('img', { name: `Thumbnail of ${pdfName}` });
  await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expect(rows.filter({ hasText: pdfName })).toContainText('Not attached');
  await expectNoViolations(page);

  // Attach both to the draft case from the picker of Case Setup.
  await page.goto(
    `/project-management/clients/${seeded.clientId}/projects/${seeded.projectId}/cases/case-details/${seeded.caseId}`,
  );
  const section = page.getByRole('region', { name: 'Resources' });
  await expect(section).toContainText('No resources yet.');
  await section.getByRole('button', { name: 'Add resources' }).click();
  const modal = page.getByRole('dialog', { name: 'Add resources from the library' });
  await modal.getByLabel('Search the library').fill(run);
  await modal.getByRole('checkbox', { name: `Add ${pdfName}` }).check();
  await modal.getByRole('checkbox', { name: `Add ${imageName}` }).check();
  await modal.getByRole('button', { name: 'Add 2 resources' }).click();
  await expect(modal).toBeHidden();
  await expect(section.getByTestId('case-resources')).toContainText(pdfName);
  await expect(section.getByTestId('case-resources')).toContainText(imageName);

  // Attached to a draft: inactive; published in an active project: active.
  await page.goto(`/resource-library?search=${run}`);
  await expect(rows.filter({ hasText: pdfName })).toContainText('Attached to inactive cases');
  await page.goto(
    `/project-management/clients/${seeded.clientId}/projects/${seeded.projectId}/cases/case-details/${seeded.caseId}`,
  );
  await page.getByRole('button', { name: 'Publish' }).first().click();
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /^Publish/ })
    .click();
  await expect(page.getByTestId('read-only')).toBeVisible();
  await page.goto(`/resource-library?search=${run}`);
  await expect(rows.filter({ hasText: pdfName })).toContainText('Attached to active cases');

  // Deleting an attached resource is refused, and the answer says why.
  await rows.filter({ hasText: pdfName }).getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Delete selected (1)' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(`"${pdfName}" (attached to "${caseName}")`)).toBeVisible();
  await expect(rows.filter({ hasText: pdfName })).toBeVisible();

  // The resource's page says where it is used.
  await rows.filter({ hasText: pdfName }).getByRole('link', { name: pdfName }).click();
  await expect(
    page.getByRole('region', { name: 'Where it is used' }).getByRole('link', { name: caseName }),
  ).toBeVisible();
  // Checked once the PDF's pages are drawn: its viewer then scrolls, and a scrolling region
  // must take the keyboard's focus.
  await expect(page.getByTestId('pdf-pages').locator('canvas[data-page="3"]')).toBeVisible();
  await expect(page.getByRole('region', { name: pdfName })).toHaveAttribute('tabindex', '0');
  await expectNoViolations(page);

  // The participant opens the case: the PDF in the viewer, the image.
  const context = await browser.newContext();
  const participant = await context.newPage();
  await participant.goto(demoParticipantLinkPath(PARTICIPANT));
  await expect(participant.getByRole('heading', { name: `Resources pilot ${run}` })).toBeVisible();
  await participant.getByTestId('dashboard-case').filter({ hasText: 'Walter Price' }).getByRole('link').first().click();
  const resources = participant.getByRole('region', { name: 'Resources' });
  await expect(resources.getByRole('tab', { name: pdfName })).toBeVisible();
  await expect(resources.getByTestId('pdf-pages').locator('canvas[data-page="3"]')).toBeVisible();
  await resources.getByRole('tab', { name: imageName }).click();
  const image = resources.getByTestId('resource-image');
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
  await context.close();
});
