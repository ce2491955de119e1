import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type {
  CaseDocument,
  EmailPreview,
  EmailTemplate,
  ParticipantSurvey,
  SavedSurveyPage,
  SeasonSummary,
  SitePage,
  SurveyTemplate,
} from '@pss/contract';
import { surveyTemplates } from '../src/db/schema/index.js';
import { sanitizeRichText } from '../src/lib/rich-text.js';
import { validCase } from './case-bodies.js';
import { emailCalls } from './email-calls.js';
import { call as callAs, savedCase } from './kit.js';
import { surveySetup } from './survey-calls.js';

const { attach, ctx, due, f, seasonProject, template, templateBody, work } = surveySetup();

/**
 * Every field the web app shows as HTML passes the one sanitiser (lib/rich-text.ts). The
 * first part finds every place in apps/web/src that inserts HTML and maps it to the contract
 * fields it shows: a new one fails here until it is listed. The second writes hostile HTML
 * into each listed field through the API (or where the field is written) and reads it back.
 */

type HtmlField =
  | 'case.reason_for_encounter'
  | 'case.details_sections.text'
  | 'case.questions.text_before'
  | 'case.references'
  | 'case.test_results'
  | 'case.explanation'
  | 'survey.questions.text_before'
  | 'season_summary.description'
  | 'site_page.body'
  | 'email.preview.html';

/**
 * Where the web app inserts HTML (file under apps/web/src → the expression inserted → the
 * contract fields it can hold). `RichTextView` is the one component with
 * `dangerouslySetInnerHTML`; the email preview's sandboxed frame takes the server's rendering.
 */
const insertedHtml: Record<string, Record<string, HtmlField[]>> = {
  'components/case-answer-form.tsx': {
    'view.reason_for_encounter': ['case.reason_for_encounter'],
    's.text': ['case.details_sections.text'],
    // The question component serves cases and surveys alike.
    'q.text_before': ['case.questions.text_before', 'survey.questions.text_before'],
  },
  'features/cases/preview-page.tsx': {
    'p.explanation': ['case.explanation'],
    'p.test_results': ['case.test_results'],
    'p.references': ['case.references'],
  },
  'features/clinician/case-result-view.tsx': {
    'result.test_results': ['case.test_results'],
    'result.explanation': ['case.explanation'],
    'result.references': ['case.references'],
  },
  'features/clinician/season-summary-card.tsx': { 'summary.description': ['season_summary.description'] },
  'features/site-pages/site-page.tsx': { 'page.data.body': ['site_page.body'] },
  'features/emails/email-preview.tsx': { 'data.html': ['email.preview.html'] },
};

const webSrc = path.resolve(import.meta.dirname, '../../web/src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.(ts|tsx)$/.test(entry.name) ? [file] : [];
  });
}

/** Every place a source file inserts HTML: `file → expression`. */
function insertions(): { raw: string[]; viaComponent: string[] } {
  const raw: string[] = [];
  const viaComponent: string[] = [];
  for (const file of sourceFiles(webSrc)) {
    const name = path.relative(webSrc, file).split(path.sep).join('/');
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/dangerouslySetInnerHTML=\{\{\s*__html:\s*([^}]+?)\s*\}\}/g))
      raw.push(`${name} → ${m[1]}`);
    // Any other way to hand the DOM a string of HTML.
    for (const m of text.matchAll(
      /\b(innerHTML|outerHTML|insertAdjacentHTML|document\.write|createContextualFragment)\b/g,
    ))
      raw.push(`${name} → ${m[1]}`);
    for (const m of text.matchAll(/<RichTextView\b[^>]*?\bhtml=\{([^}]+)\}/g)) viaComponent.push(`${name} → ${m[1]}`);
    for (const m of text.matchAll(/\bsrcDoc=\{([^}]+)\}/g)) viaComponent.push(`${name} → ${m[1]}`);
  }
  return { raw, viaComponent };
}

describe('where the web app inserts HTML', () => {
  it('only RichTextView inserts HTML itself (dangerouslySetInnerHTML), and only its own prop', () => {
    expect(insertions().raw).toEqual(['components/rich-text-view.tsx → html']);
  });

  it('every RichTextView and srcDoc shows a listed contract field, and every listed one is still there', () => {
    const listed = Object.entries(insertedHtml).flatMap(([file, fields]) =>
      Object.keys(fields).map((expression) => `${file} → ${expression}`),
    );
    expect(insertions().viaComponent.sort()).toEqual(listed.sort());
  });
});

const hostile =
  '<p>Kept <strong>this</strong></p><style>body { background: red }</style><script>alert(1)</script>' +
  '<img src="https://tracker.test/i.gif" onerror="alert(2)"><form action="https://evil.test/f">' +
  '<input type="password" name="pw"></form><a href="javascript:alert(3)">a link</a>' +
  '<iframe src="https://evil.test/frame"></iframe><p onclick="alert(4)" style="color: red">Also kept</p>';
const dangerous = /<(style|script|img|form|input|iframe)\b|javascript:|onerror|onclick|background: red|color: red/i;

/** HTML as the sanitiser leaves it: the harmless words kept, nothing dangerous, and nothing more to take out. */
function expectSanitised(html: string, field: string): void {
  expect(html, field).toContain('Kept <strong>this</strong>');
  expect(html, field).toContain('Also kept');
  expect(html, field).not.toMatch(dangerous);
  expect(sanitizeRichText(html), field).toBe(html);
}

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  callAs(ctx, method, url, f.asSuperadmin, payload);

async function caseFieldsRoundTrip(): Promise<CaseDocument> {
  const p = await work.project(f.clientA.id);
  const body = validCase(p, {
    reason_for_encounter: hostile,
    references: hostile,
    test_results: hostile,
    explanation: hostile,
    details_sections: [{ name: 'History', text: hostile }],
  });
  body.questions = body.questions.map((q) => ({ ...q, text_before: hostile }));
  const saved = await savedCase(ctx, f.asSuperadmin, { project_id: p.id }, body);
  const read = await call('GET', `/cases/${saved.id}`);
  expect(read.statusCode).toBe(200);
  return read.json<CaseDocument>();
}

const surveyPagesWith = (pages: SavedSurveyPage[], html: string): SavedSurveyPage[] =>
  pages.map((page) => ({
    ...page,
    components: page.components.map((c) => (c.kind === 'QUESTION' ? { ...c, text_before: html } : c)),
  }));

/** Proof for each field: hostile HTML written where the field is written, read back where it is read. */
const proofs: Record<HtmlField, () => Promise<void>> = {
  'case.reason_for_encounter': async () =>
    expectSanitised((await caseFieldsRoundTrip()).reason_for_encounter, 'reason_for_encounter'),
  'case.details_sections.text': async () =>
    expectSanitised((await caseFieldsRoundTrip()).details_sections[0]!.text, 'details_sections.0.text'),
  'case.questions.text_before': async () => {
    for (const q of (await caseFieldsRoundTrip()).questions) expectSanitised(q.text_before, 'questions.text_before');
  },
  'case.references': async () => expectSanitised((await caseFieldsRoundTrip()).references, 'references'),
  'case.test_results': async () => expectSanitised((await caseFieldsRoundTrip()).test_results, 'test_results'),
  'case.explanation': async () => expectSanitised((await caseFieldsRoundTrip()).explanation, 'explanation'),

  'survey.questions.text_before': async () => {
    const body = templateBody('Hostile start', 'START_NEW');
    const pages = body.pages.map((page) => ({
      ...page,
      components: page.components.map((c) => ({ ...c, text_before: hostile })),
    }));
    const created = await call('POST', '/survey-templates', { ...body, pages });
    expect(created.statusCode, created.body).toBe(201);
    const read = (await call('GET', `/survey-templates/${created.json<SurveyTemplate>().id}`)).json<SurveyTemplate>();
    for (const t of [created.json<SurveyTemplate>(), read]) {
      for (const c of t.pages.flatMap((page) => page.components)) {
        if (c.kind === 'QUESTION') expectSanitised(c.text_before, 'survey text_before');
      }
    }

    // A template stored before "text before" was sanitised on save is answered clean, to
    // the builder and to the participant who answers it.
    const stored = await template('Stored before', 'START_NEW');
    await ctx.db
      .update(surveyTemplates)
      .set({ pages: surveyPagesWith(stored.pages, hostile) })
      .where(eq(surveyTemplates.id, stored.id));
    const builder = (await call('GET', `/survey-templates/${stored.id}`)).json<SurveyTemplate>();
    const { p, participant, attemptId } = await seasonProject();
    expect((await attach(p.id, { start_new_template_id: stored.id })).statusCode).toBe(200);
    const answering: ParticipantSurvey | null = (await due(participant, attemptId)).start;
    expect(answering?.template_id).toBe(stored.id);
    for (const shown of [builder.pages, answering!.pages]) {
      const questions = shown.flatMap((page) => page.components).filter((c) => c.kind === 'QUESTION');
      expect(questions.length).toBeGreaterThan(0);
      for (const q of questions) expectSanitised(q.text_before, 'stored survey text_before');
    }
  },

  'season_summary.description': async () => {
    const p = await work.project(f.clientA.id);
    const url = `/projects/${p.id}/season-summary?seasonName=${encodeURIComponent('Spring 2026')}`;
    const saved = await call('POST', url, { title: 'Found', description: hostile, greeting: '', video_url: null });
    expect(saved.statusCode, saved.body).toBe(200);
    expectSanitised(saved.json<SeasonSummary>().description, 'description (saved)');
    const read = (await call('GET', url)).json<{ summary: SeasonSummary | null }>();
    expectSanitised(read.summary!.description, 'description (read)');
  },

  // The operator writes these pages as files (DATA_DIR/pages/<name>.html); the API reads them.
  'site_page.body': async () => {
    const dir = path.join(ctx.config.dataDir, 'pages');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'support.html'), hostile);
    try {
      const page = await callAs(ctx, 'GET', '/pages/support');
      expect(page.statusCode, page.body).toBe(200);
      expectSanitised(page.json<SitePage>().body, 'site page body');
    } finally {
      rmSync(path.join(dir, 'support.html'), { force: true });
    }
  },

  // The frame shows the whole message: the body sanitised, the button and link texts escaped.
  'email.preview.html': async () => {
    const p = await work.project(f.clientA.id);
    const email = await emailCalls(ctx).emailOf(p.id, 'initial', f.asAdminA);
    const texts = {
      subject: 'Hello',
      body: hostile,
      button_text: '<img src=x>Go',
      dashboard_url_text: '<style>a { color: red }</style><a href="javascript:alert(5)">Open</a>',
    };
    const preview = await call('POST', `/projects/${email.id}/email-preview`, texts);
    expect(preview.statusCode, preview.body).toBe(200);
    const html = preview.json<EmailPreview>().html;
    expect(html).toContain('Kept <strong>this</strong>');
    expect(html).toContain('&lt;img src=x&gt;Go');
    expect(html).toContain('&lt;a href=&quot;javascript:alert(5)&quot;&gt;Open&lt;/a&gt;');
    // As markup: the escaped texts may show the same words.
    expect(html).not.toMatch(/<(style|script|img|form|input|iframe)\b|href="javascript:|\son(error|click)=/i);
    expect(html).not.toContain('background: red');
    const saved = await call('POST', `/projects/${email.id}/email`, { ...texts, send_mode: 'MANUAL' });
    expect(saved.statusCode, saved.body).toBe(200);
    expectSanitised(saved.json<EmailTemplate>().body, 'email body');
  },
};

describe('each field shown as HTML, written with hostile HTML', () => {
  const fields = [...new Set(Object.values(insertedHtml).flatMap((fields) => Object.values(fields).flat()))];

  it('has a proof for every listed field', () => {
    expect(fields.sort()).toEqual(Object.keys(proofs).sort());
  });

  it.each(fields)('%s comes back sanitised', async (field) => {
    await proofs[field]();
  });
});
