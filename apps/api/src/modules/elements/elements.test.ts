import { beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { type CaseDocument } from '@pss/contract';
import { type Headers } from '../../../test/fixtures.js';
import { expectError, filterQuery, type Home, type Reply } from '../../../test/kit.js';
import { AT, brief, KT, tagRows, type Where, elementsSetup } from '../../../test/element-calls.js';

const {
  ctx,
  f,
  call,
  newProject,
  newModule,
  createModuleCase,
  createProjectCase,
  postFile,
  importAndRun,
  takeaways,
  tags,
  jobCount,
  tagNameCount,
} = elementsSetup();

/* ---------- 1-3. key takeaways of a project ---------- */

describe('key takeaways of a project', () => {
  let p: Home;
  let chest: CaseDocument;
  let breath: CaseDocument;

  beforeAll(async () => {
    p = await newProject(f.clientA.id);
    chest = await createProjectCase(p, { name: 'Chest pain' });
    breath = await createProjectCase(p, { name: 'Breathless' });
    await createProjectCase(p, { name: 'Twin' });
    await createProjectCase(p, { name: 'Twin' });
  });

  it('imports a spreadsheet file (BOM, semicolons, CRLF) as a job and lists the takeaways in file order per case', async () => {
    const file =
      '\uFEFFCase_Name;Key_Takeaway\r\n' +
      'Chest pain;"Rule out ACS; then the rest"\r\n' +
      'breathless;Check oxygen saturation\r\n' +
      '  CHEST PAIN ;Repeat troponin after 3 hours\r\n' +
      'Chest pain;Aspirin unless contraindicated\r\n';
    const job = await importAndRun('projects', p.id, 'key-takeaways', file);
    expect(job).toMatchObject({ kind: 'SUMMARY', state: 'COMPLETE', total_rows: 4, processed_rows: 4, errors: [] });
    expect(job.finished_at).not.toBeNull();

    expect(await takeaways('projects', p.id)).toEqual([
      { case_id: breath.id, case_name: 'Breathless', position: 1, text: 'Check oxygen saturation', origin: 'CUSTOM' },
      {
        case_id: chest.id,
        case_name: 'Chest pain',
        position: 1,
        text: 'Rule out ACS; then the rest',
        origin: 'CUSTOM',
      },
      {
        case_id: chest.id,
        case_name: 'Chest pain',
        position: 2,
        text: 'Repeat troponin after 3 hours',
        origin: 'CUSTOM',
      },
      {
        case_id: chest.id,
        case_name: 'Chest pain',
        position: 3,
        text: 'Aspirin unless contraindicated',
        origin: 'CUSTOM',
      },
    ]);
    expect(brief(await takeaways('projects', p.id, chest.id))).toEqual([
      ['Chest pain', 1, 'Rule out ACS; then the rest', 'CUSTOM'],
      ['Chest pain', 2, 'Repeat troponin after 3 hours', 'CUSTOM'],
      ['Chest pain', 3, 'Aspirin unless contraindicated', 'CUSTOM'],
    ]);
    expect(brief(await takeaways('projects', p.id, breath.id))).toEqual([
      ['Breathless', 1, 'Check oxygen saturation', 'CUSTOM'],
    ]);
    // The job is a SUMMARY import: the participants import of the project is another matter.
    const participantsImport = await call('GET', `/projects/${p.id}/import`, { headers: f.asAdminA });
    expect(participantsImport.statusCode).toBe(200);
    expect(participantsImport.json()).toBeNull();
    const noTags = await call('GET', `/projects/${p.id}/import?type=ANSWER_TAGS`, { headers: f.asAdminA });
    expect(noTags.json()).toBeNull();
    expectError(
      await call('GET', `/projects/${p.id}/key-takeaways?${filterQuery({ case_id: 'nope' })}`, {
        headers: f.asAdminA,
      }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('replaces the list of the cases a second upload names, and leaves the other cases alone', async () => {
    const job = await importAndRun(
      'projects',
      p.id,
      'key-takeaways',
      `${KT}\nChest pain,Only this now\nChest pain,And this\n`,
    );
    expect(job).toMatchObject({ state: 'COMPLETE', total_rows: 2, processed_rows: 2, errors: [] });
    expect(brief(await takeaways('projects', p.id))).toEqual([
      ['Breathless', 1, 'Check oxygen saturation', 'CUSTOM'],
      ['Chest pain', 1, 'Only this now', 'CUSTOM'],
      ['Chest pain', 2, 'And this', 'CUSTOM'],
    ]);
  });

  it('refuses 21 takeaways for one case on line 22, changing nothing, and accepts 20', async () => {
    const before = await takeaways('projects', p.id);
    const rows = (n: number) => Array.from({ length: n }, (_, i) => `Chest pain,Takeaway ${i + 1}`);

    const tooMany = await importAndRun('projects', p.id, 'key-takeaways', [KT, ...rows(21)].join('\n'));
    expect(tooMany).toMatchObject({ state: 'ERROR', total_rows: 21, processed_rows: 0 });
    expect(tooMany.errors).toEqual([
      {
        line: 22,
        errorCode: 'IMPORT_MAX_DATA_EXCEEDED',
        message: 'Line 22: "Chest pain" would have more than 20 key takeaways.',
      },
    ]);
    expect(await takeaways('projects', p.id)).toEqual(before);

    const twenty = await importAndRun('projects', p.id, 'key-takeaways', [KT, ...rows(20)].join('\n'));
    expect(twenty).toMatchObject({ state: 'COMPLETE', total_rows: 20, processed_rows: 20, errors: [] });
    const chestList = await takeaways('projects', p.id, chest.id);
    expect(chestList.map((k) => k.position)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(chestList.map((k) => k.text)).toEqual(Array.from({ length: 20 }, (_, i) => `Takeaway ${i + 1}`));
    expect(brief(await takeaways('projects', p.id, breath.id))).toEqual([
      ['Breathless', 1, 'Check oxygen saturation', 'CUSTOM'],
    ]);
  });

  it.each([
    ['an unknown case name', `${KT}\nChest pain,Fine\nNo such case,Lost\n`, 3, 'IMPORT_VALIDATION_FAILED'],
    ['a blank takeaway', `${KT}\nChest pain,   \n`, 2, 'BLANK_TEXT'],
    ['a blank case name', `${KT}\n,Whose is this?\n`, 2, 'FIELD_REQUIRED'],
    ['a missing key_takeaway column', 'case_name,takeaway\nChest pain,Text\n', 1, 'CSV_HEADERS_OR_DELIMITER_INVALID'],
    ['no header row', 'Chest pain,Text\nBreathless,Other\n', 1, 'CSV_HEADERS_OR_DELIMITER_INVALID'],
    ['a tab-separated file', 'case_name\tkey_takeaway\nChest pain\tText\n', 1, 'CSV_HEADERS_OR_DELIMITER_INVALID'],
    ['a name two cases share', `${KT}\nChest pain,Fine\nTWIN,Which one?\n`, 3, 'IMPORT_VALIDATION_FAILED'],
    [
      'one bad row among good ones (a blank line keeps its number)',
      `${KT}\nChest pain,New 1\nBreathless,New 2\n\nChest pain,\nBreathless,New 3\n`,
      5,
      'BLANK_TEXT',
    ],
  ])('refuses %s: job ERROR, that row listed, nothing written', async (_label, content, line, errorCode) => {
    const before = await takeaways('projects', p.id);
    const job = await importAndRun('projects', p.id, 'key-takeaways', content);
    expect(job).toMatchObject({ kind: 'SUMMARY', state: 'ERROR', processed_rows: 0 });
    expect(job.errors).toHaveLength(1);
    expect(job.errors[0]).toMatchObject({ line, errorCode });
    if (line > 1) expect(job.errors[0]!.message).toMatch(new RegExp(`^Line ${line}: `));
    expect(await takeaways('projects', p.id)).toEqual(before);
  });
});

/* ---------- 4. answer tags of a project ---------- */

describe('answer tags of a project', () => {
  let p: Home;
  let chest: CaseDocument;
  let breath: CaseDocument;

  beforeAll(async () => {
    p = await newProject(f.clientA.id);
    chest = await createProjectCase(p, { name: 'Chest pain' });
    breath = await createProjectCase(p, { name: 'Breathless' });
  });

  it('imports tags, matching question and answer text regardless of case and spacing, and lists them', async () => {
    const file =
      `${AT}\n` +
      'Chest pain,FIRST TEST?,ecg,Cardiac\n' +
      'chest pain,  which   blood tests? ,TROPONIN,Cardiac\n' +
      'Chest pain,Which blood tests?,D-dimer,Thrombosis\n' +
      'Breathless,Disposition,admit to cardiology,Admission\n';
    const job = await importAndRun('projects', p.id, 'answers-tags', file);
    expect(job).toMatchObject({ kind: 'ANSWER_TAGS', state: 'COMPLETE', total_rows: 4, processed_rows: 4, errors: [] });

    const items = await tags('projects', p.id);
    expect(items.map((t) => [t.case_name, t.tag])).toEqual([
      ['Breathless', 'Admission'],
      ['Chest pain', 'Cardiac'],
      ['Chest pain', 'Cardiac'],
      ['Chest pain', 'Thrombosis'],
    ]);
    expect(tagRows(items)).toEqual([
      'Breathless | Disposition | Admit to cardiology | Admission | CUSTOM',
      'Chest pain | First test? | ECG | Cardiac | CUSTOM',
      'Chest pain | Which blood tests? | D-dimer | Thrombosis | CUSTOM',
      'Chest pain | Which blood tests? | Troponin | Cardiac | CUSTOM',
    ]);
    const firstTest = chest.questions[0]!;
    expect(items.find((t) => t.answer === 'ECG')).toEqual({
      case_id: chest.id,
      case_name: 'Chest pain',
      question_id: firstTest.id,
      question: 'First test?',
      choice_id: firstTest.choices[0]!.id,
      answer: 'ECG',
      tag: 'Cardiac',
      origin: 'CUSTOM',
    });
    expect(tagRows(await tags('projects', p.id, breath.id))).toEqual([
      'Breathless | Disposition | Admit to cardiology | Admission | CUSTOM',
    ]);
    const summary = await call('GET', `/projects/${p.id}/import?type=SUMMARY`, { headers: f.asAdminA });
    expect(summary.json()).toBeNull();
  });

  it.each([
    ['an unknown question', 'Chest pain,Which imaging?,ECG,Cardiac', 'IMPORT_VALIDATION_FAILED'],
    ['an unknown answer', 'Chest pain,First test?,MRI,Cardiac', 'IMPORT_VALIDATION_FAILED'],
    ["another question's answer", 'Chest pain,First test?,Troponin,Cardiac', 'IMPORT_VALIDATION_FAILED'],
    ['a free-text question', 'Chest pain,What do you tell the patient?,Rest,Advice', 'IMPORT_VALIDATION_FAILED'],
    ['an unknown case', 'Nobody,First test?,ECG,Cardiac', 'IMPORT_VALIDATION_FAILED'],
    ['a blank tag', 'Chest pain,First test?,ECG,  ', 'BLANK_TEXT'],
  ])('refuses %s on its line and writes nothing, not even the good row', async (_label, badRow, errorCode) => {
    const before = { items: await tags('projects', p.id), names: await tagNameCount() };
    const job = await importAndRun(
      'projects',
      p.id,
      'answers-tags',
      `${AT}\nBreathless,Disposition,Discharge home,Home\n${badRow}\n`,
    );
    expect(job).toMatchObject({ kind: 'ANSWER_TAGS', state: 'ERROR', total_rows: 2, processed_rows: 0 });
    expect(job.errors).toEqual([{ line: 3, errorCode, message: expect.stringMatching(/^Line 3: /) }]);
    expect({ items: await tags('projects', p.id), names: await tagNameCount() }).toEqual(before);
  });

  it('refuses a file without the answer column (line 1)', async () => {
    const before = await tags('projects', p.id);
    const job = await importAndRun(
      'projects',
      p.id,
      'answers-tags',
      'case_name,question,tag\nChest pain,First test?,X\n',
    );
    expect(job).toMatchObject({ state: 'ERROR', processed_rows: 0 });
    expect(job.errors).toMatchObject([{ line: 1, errorCode: 'CSV_HEADERS_OR_DELIMITER_INVALID' }]);
    expect(await tags('projects', p.id)).toEqual(before);
  });

  it('replaces the tags of the cases a second upload names only', async () => {
    const job = await importAndRun(
      'projects',
      p.id,
      'answers-tags',
      `${AT}\nBreathless,Disposition,Discharge home,Home\n`,
    );
    expect(job).toMatchObject({ state: 'COMPLETE', total_rows: 1, processed_rows: 1 });
    expect(tagRows(await tags('projects', p.id))).toEqual([
      'Breathless | Disposition | Discharge home | Home | CUSTOM',
      'Chest pain | First test? | ECG | Cardiac | CUSTOM',
      'Chest pain | Which blood tests? | D-dimer | Thrombosis | CUSTOM',
      'Chest pain | Which blood tests? | Troponin | Cardiac | CUSTOM',
    ]);
  });
});

/* ---------- 7. access ---------- */

describe('who may call the elements API', () => {
  let p: Home;
  let m: Home;

  beforeAll(async () => {
    p = await newProject(f.clientA.id);
    await createProjectCase(p, { name: 'Guarded case' });
    expect((await importAndRun('projects', p.id, 'key-takeaways', `${KT}\nGuarded case,Mine\n`)).state).toBe(
      'COMPLETE',
    );
    m = await newModule();
    await createModuleCase(m, { name: 'Library case' });
  });

  /** Every elements call of a project or module, as [label, send]. */
  function callsOf(where: Where, id: string): [string, (headers: Headers | object) => Promise<Reply>][] {
    const base = `/${where}/${id}`;
    const casesQuery = where === 'module-library' ? '?type=KEY_TAKEAWAYS' : '';
    return [
      [`GET ${base}/key-takeaways`, (headers) => call('GET', `${base}/key-takeaways`, { headers })],
      [
        `POST ${base}/key-takeaways`,
        (headers) => postFile(`${base}/key-takeaways`, `${KT}\nGuarded case,Theirs\n`, headers),
      ],
      [`GET ${base}/answers-tags`, (headers) => call('GET', `${base}/answers-tags`, { headers })],
      [
        `POST ${base}/answers-tags`,
        (headers) => postFile(`${base}/answers-tags`, `${AT}\nGuarded case,First test?,ECG,X\n`, headers),
      ],
      [`GET ${base}/cases-keys-tags`, (headers) => call('GET', `${base}/cases-keys-tags${casesQuery}`, { headers })],
      [`GET ${base}/import SUMMARY`, (headers) => call('GET', `${base}/import?type=SUMMARY`, { headers })],
      [`GET ${base}/import ANSWER_TAGS`, (headers) => call('GET', `${base}/import?type=ANSWER_TAGS`, { headers })],
    ];
  }

  async function expectAll(
    calls: ReturnType<typeof callsOf>,
    headers: Headers | object,
    status: number,
    errorCode: string,
  ): Promise<void> {
    for (const [label, send] of calls) {
      const response = await send(headers);
      expect({ call: label, status: response.statusCode, errorCode: response.json().errorCode }).toEqual({
        call: label,
        status,
        errorCode,
      });
    }
  }

  it('hides a project from an administrator of another client, queueing nothing', async () => {
    const jobs = await jobCount();
    const before = await takeaways('projects', p.id);
    await expectAll(callsOf('projects', p.id), f.asAdminB, 404, 'PROJECT_NOT_FOUND');
    await expectAll(callsOf('projects', randomUUID()), f.asAdminA, 404, 'PROJECT_NOT_FOUND');
    // A module library is no project.
    await expectAll(callsOf('projects', m.id), f.asSuperadmin, 404, 'PROJECT_NOT_FOUND');
    expect(await jobCount()).toBe(jobs);
    expect(await ctx.app.imports.runPending()).toBe(0);
    expect(await takeaways('projects', p.id)).toEqual(before);
  });

  it('keeps module libraries to superadmins: 403 for a client administrator, 401 without a token', async () => {
    const jobs = await jobCount();
    await expectAll(callsOf('module-library', m.id), f.asAdminA, 403, 'FORBIDDEN');
    await expectAll(callsOf('module-library', m.id), {}, 401, 'NOT_AUTHORIZED');
    await expectAll(callsOf('projects', p.id), {}, 401, 'NOT_AUTHORIZED');
    expect(await jobCount()).toBe(jobs);
    expect(await takeaways('module-library', m.id)).toEqual([]);
  });

  it('answers 404 NOT_FOUND for a module library that does not exist (or is a project)', async () => {
    const jobs = await jobCount();
    await expectAll(callsOf('module-library', randomUUID()), f.asSuperadmin, 404, 'NOT_FOUND');
    await expectAll(callsOf('module-library', p.id), f.asSuperadmin, 404, 'NOT_FOUND');
    expect(await jobCount()).toBe(jobs);
  });
});
