import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CertificatePdfInput } from './certificate-pdf.js';
import { createCertificateRenderer, type CertificateRenderer } from './certificate-renderer.js';

/**
 * Issue #37: the certificate's PDF, drawn in the drawing process, read back with poppler's
 * tools (pdftotext, pdffonts, pdfinfo), as a reader's viewer or search would read it.
 */
const run = promisify(execFile);
let folder: string;
let renderer: CertificateRenderer;
let written = 0;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'pss-certificate-'));
  renderer = createCertificateRenderer();
});
afterAll(async () => {
  await renderer.close();
  await rm(folder, { recursive: true, force: true });
});

const certificate = (changes: Partial<CertificatePdfInput> = {}): CertificatePdfInput => ({
  participantName: 'Dana Whitfield',
  profession: 'Registered Nurse',
  projectName: 'Emergency Medicine Simulations',
  clientName: 'St. Anne Teaching Hospital',
  credits: 2.5,
  mocPoints: 1.5,
  courseId: 'EM-2026-04',
  issuedAt: '2026-11-29T23:30:00.000Z',
  revokedAt: null,
  code: '7K3Q-M9TX-4HWC-P2RB-D8NE',
  verifyUrl: 'https://sim.example.org/verify/7K3Q-M9TX-4HWC-P2RB-D8NE',
  cases: [
    { case_name: 'Chest pain in a 54-year-old man', submitted_at: '2026-11-02T10:00:00.000Z' },
    { case_name: 'Shortness of breath after surgery', submitted_at: '2026-11-20T15:30:00.000Z' },
  ],
  ...changes,
});

/** Draws in the drawing process and writes the PDF where poppler's tools read it. */
async function rendered(input: CertificatePdfInput) {
  const pdf = await renderer.render(input);
  const file = path.join(folder, `${(written += 1)}.pdf`);
  await writeFile(file, pdf);
  const tool = async (name: string, ...args: string[]) =>
    (await run(name, [...args, file, ...(name === 'pdftotext' ? ['-'] : [])])).stdout;
  return {
    pdf,
    layout: () => tool('pdftotext', '-layout'),
    /** The text in reading order with its runs of white space as one space (a wrapped line joins up). */
    flowing: async () => (await tool('pdftotext')).replace(/\s+/g, ' '),
    words: () => tool('pdftotext', '-bbox'),
    fonts: () => tool('pdffonts'),
    info: () => tool('pdfinfo'),
    /** The structure tree with its text (poppler 22.12's `pdfinfo -struct-text`). */
    structure: () => tool('pdfinfo', '-struct-text'),
  };
}

/** The texts of a structure tree, in its order, each with the type of the element holding it. */
function structureTexts(tree: string): { type: string; text: string }[] {
  const texts: { type: string; text: string }[] = [];
  let type = '';
  for (const line of tree.split('\n')) {
    const element = /^\s*([A-Za-z0-9]+) \((?:block|inline)\)/.exec(line);
    if (element) type = element[1]!;
    const text = /^\s*"(.*)"$/.exec(line);
    if (text) texts.push({ type, text: text[1]! });
  }
  return texts;
}

/** Each word's height in points, from pdftotext's boxes (the font's size × about 1.16 for DejaVu Sans). */
async function wordHeights(words: string): Promise<Map<string, number>> {
  const heights = new Map<string, number>();
  for (const [, yMin, yMax, word] of words.matchAll(/yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)</g)) {
    heights.set(word!, Math.min(heights.get(word!) ?? Infinity, Number(yMax) - Number(yMin)));
  }
  return heights;
}

/** The page content streams' operators, inflated (pdfkit compresses them). */
function contentStreams(pdf: Uint8Array): string {
  const bytes = Buffer.from(pdf).toString('latin1');
  const streams: string[] = [];
  for (const [, body] of bytes.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    try {
      streams.push(inflateSync(Buffer.from(body!, 'latin1')).toString('latin1'));
    } catch {
      // Not deflated content (a font's stream is, but holds no operators of interest).
    }
  }
  return streams.filter((text) => /\bBT\b|\bre\b/.test(text)).join('\n');
}

describe('the certificate PDF', () => {
  it('says who completed what, for how many credits, when, and where to check it; its text reads back', async () => {
    const drawn = await rendered(certificate());
    const text = await drawn.layout();
    for (const expected of [
      'Certificate of Completion',
      'Dana Whitfield',
      'Registered Nurse',
      'has completed 2 cases of Emergency Medicine Simulations (St. Anne Teaching Hospital)',
      '2.5 CME credits',
      '1.5 MOC points',
      'Course ID: EM-2026-04',
      'November 29, 2026',
      '7K3Q-M9TX-4HWC-P2RB-D8NE',
      'https://sim.example.org/verify/7K3Q-M9TX-4HWC-P2RB-D8NE',
      'Chest pain in a 54-year-old man',
      'Nov 20, 2026',
    ]) {
      expect(text, expected).toContain(expected);
    }
    expect(text).not.toContain('REVOKED');
    // The address is a link too.
    expect(Buffer.from(drawn.pdf).toString('latin1')).toContain(
      '/URI (https://sim.example.org/verify/7K3Q-M9TX-4HWC-P2RB-D8NE)',
    );
    const info = await drawn.info();
    expect(info).toMatch(/^Pages:\s+1$/m);
    expect(info).toMatch(/^Page size:\s+792 x 612 pts \(letter\)$/m);
    expect(info).toMatch(/^Title:\s+Certificate of Completion — Dana Whitfield$/m);
    expect(info).toMatch(/^Author:\s+Patient Simulation Platform$/m);
    expect(info).toMatch(/^Subject:\s+CME certificate 7K3Q-M9TX-4HWC-P2RB-D8NE: Emergency Medicine Simulations/m);
  });

  it('is a tagged PDF in English whose structure tree reads every text in order, its decoration artifacts (issue #48)', async () => {
    const drawn = await rendered(certificate());
    expect(await drawn.info()).toMatch(/^Tagged:\s+yes$/m);
    const raw = Buffer.from(drawn.pdf).toString('latin1');
    expect(raw).toContain('/Lang (en-US)');
    expect(raw).toMatch(/\/DisplayDocTitle true/);
    const texts = structureTexts(await drawn.structure());
    expect(texts.map((t) => `${t.type}: ${t.text}`)).toEqual([
      'P: PATIENT SIMULATION PLATFORM',
      'H1: Certificate of Completion',
      'P: This certifies that',
      'P: Dana Whitfield',
      'P: Registered Nurse',
      'P: has completed 2 cases of Emergency Medicine Simulations (St. Anne Teaching Hospital)',
      'P: 2.5 CME credits · 1.5 MOC points',
      'P: Course ID: EM-2026-04',
      'H2: Cases completed',
      'LBody: Chest pain in a 54-year-old man Nov 2, 2026',
      'LBody: Shortness of breath after surgery Nov 20, 2026',
      'P: Date of issue',
      'P: November 29, 2026',
      'P: Issued by',
      'P: Patient Simulation Platform',
      'P: Verification code',
      'P: 7K3Q-M9TX-4HWC-P2RB-D8NE',
      'P: Verify this certificate at',
      'Link: https://sim.example.org/verify/7K3Q-M9TX-4HWC-P2RB-D8NE',
    ]);
    // The cases are a list of two items; the address's link annotation belongs to its Link.
    const tree = await drawn.structure();
    expect(tree.match(/^\s*L \(block\)$/gm)).toHaveLength(1);
    expect(tree.match(/^\s*LI \(block\)$/gm)).toHaveLength(2);
    expect(tree).toMatch(/Link \(inline\)\n\s*"https:[^"]*"\n\s*Object \d+ 0/);
    // Every word on the page is in the tree: no text is left untagged.
    const tagged = texts.map((t) => t.text).join(' ');
    for (const word of (await drawn.flowing()).trim().split(' ')) expect(tagged, word).toContain(word);
    // The frame, the rules and the revoked box are drawn inside artifacts, outside the tree.
    const content = contentStreams(drawn.pdf);
    const artifacts = [...content.matchAll(/\/Artifact <<[^>]*>> BDC([\s\S]*?)EMC/g)].map((m) => m[1]!);
    // The frame, the title's rule, the footer's three rules.
    expect(artifacts.filter((ops) => /\bre\b|\bl\b/.test(ops)).length).toBeGreaterThanOrEqual(5);
    const outside = content.replace(/\/Artifact <<[^>]*>> BDC[\s\S]*?EMC/g, '');
    expect(outside).not.toMatch(/\bre\s+S\b/);
  });

  it('lists the cases one a line at 9 pt or more, the case and its date on one line', async () => {
    const drawn = await rendered(certificate());
    const heights = await wordHeights(await drawn.words());
    // "Verify this certificate at" is 9 pt: a case's words are at least as tall.
    const ninePoint = heights.get('Verify')!;
    for (const word of ['Chest', 'Shortness', 'Nov'])
      expect(heights.get(word), word).toBeGreaterThanOrEqual(ninePoint - 0.01);
    const lines = (await drawn.layout()).split('\n');
    expect(lines.find((l) => l.includes('Chest pain in a 54-year-old man'))).toMatch(/man\s+Nov 2, 2026\s*$/);
    expect(lines.find((l) => l.includes('Shortness of breath'))).toMatch(/surgery\s+Nov 20, 2026\s*$/);
  });

  it('embeds its two DejaVu Sans fonts and uses no other (no standard PDF font)', async () => {
    const fonts = (await (await rendered(certificate())).fonts()).trim().split('\n').slice(2);
    expect(fonts).toHaveLength(2);
    // name, type, encoding, emb, sub, uni: e.g. "BZZZZZ+DejaVuSans CID TrueType Identity-H yes yes yes 9 0".
    const rows = fonts.map((line) => line.split(/\s+/));
    expect(rows.map((row) => row[0]!.replace(/^[A-Z]{6}\+/, '')).sort()).toEqual(['DejaVuSans', 'DejaVuSans-Bold']);
    for (const row of rows) expect(row.slice(-5, -2)).toEqual(['yes', 'yes', 'yes']);
  });

  it('says a revoked certificate is revoked, and when, leaving out what is not given', async () => {
    const drawn = await rendered(
      certificate({ revokedAt: '2026-12-01T09:00:00.000Z', mocPoints: null, courseId: null, profession: null }),
    );
    const text = await drawn.layout();
    expect(text).toContain('REVOKED on December 1, 2026');
    expect(text).toContain('2.5 CME credits');
    expect(text).not.toContain('MOC');
    expect(text).not.toContain('Course ID');
  });

  it('reads back non-Latin names, letters the font lacks included', async () => {
    // The Chinese letters are drawn as empty boxes (DejaVu Sans has none), but each name reads
    // back whole; the accented Latin letters are the font's own.
    for (const name of ['José Nguyễn Ölçer', 'Анна Петрова', 'Zoë Ștefănescu-Łukasiewicz', '王芳 Wang Fang']) {
      const drawn = await rendered(certificate({ participantName: name }));
      expect(await drawn.layout()).toContain(name);
    }
  });

  it('keeps a 200-character name and long titles inside its border, and 60 cases go on to further pages at 9 pt', async () => {
    const name = Array.from({ length: 40 }, (_, i) => `Name${i % 10}`)
      .join(' ')
      .slice(0, 200);
    expect(name).toHaveLength(200);
    const cases = Array.from({ length: 60 }, (_, i) => ({
      case_name: `Case ${i + 1}: a long and winding presentation of abdominal pain in the night`,
      submitted_at: '2026-10-15T08:00:00.000Z',
    }));
    const drawn = await rendered(certificate({ participantName: name, cases }));
    const pages = Number(/^Pages:\s+(\d+)$/m.exec(await drawn.info())![1]);
    expect(pages).toBeGreaterThan(1);
    const text = await drawn.flowing();
    expect(text).toContain(name);
    expect(text).toContain('has completed 60 cases');
    expect(text).not.toMatch(/and \d+ more/);
    // Each further page says whose certificate it continues.
    expect(text).toContain(`7K3Q-M9TX-4HWC-P2RB-D8NE — page ${pages} of ${pages}`);
    expect(text).toContain('Cases completed (continued)');
    // Every case, whole, in order, one list item each; the running lines are left out of the tree.
    const listed = structureTexts(await drawn.structure()).filter((t) => t.type === 'LBody');
    expect(listed.map((t) => t.text)).toEqual(cases.map((c) => `${c.case_name} Oct 15, 2026`));
    const tree = await drawn.structure();
    expect(tree).not.toContain('continued');
    expect(tree.match(/^\s*H2 \(block\)$/gm)).toHaveLength(1);
    // No case is drawn below 9 pt.
    const heights = await wordHeights(await drawn.words());
    expect(heights.get('winding')).toBeGreaterThanOrEqual(heights.get('Verify')! - 0.01);

    const unbroken = await rendered(
      certificate({
        participantName: 'W'.repeat(200),
        profession: 'Consultant '.repeat(30),
        projectName: 'Project '.repeat(40),
        clientName: 'Client '.repeat(40),
        courseId: 'C'.repeat(150),
        verifyUrl: `https://sim.example.org/verify/${'X'.repeat(300)}`,
        cases: [...cases, { case_name: 'Z'.repeat(400), submitted_at: '2026-10-16T08:00:00.000Z' }],
      }),
    );
    expect(await unbroken.info()).toMatch(/^Tagged:\s+yes$/m);
    // Every word of every page lies inside the page's border (18 pt from each edge).
    const boxes = [
      ...(await unbroken.words()).matchAll(/xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)"/g),
    ];
    expect(boxes.length).toBeGreaterThan(50);
    for (const [, xMin, yMin, xMax, yMax] of boxes) {
      expect(Number(xMin)).toBeGreaterThan(18);
      expect(Number(yMin)).toBeGreaterThan(18);
      expect(Number(xMax)).toBeLessThan(792 - 18);
      expect(Number(yMax)).toBeLessThan(612 - 18);
    }
  });

  it('draws a certificate with no cases without a list', async () => {
    const drawn = await rendered(certificate({ cases: [] }));
    expect(await drawn.info()).toMatch(/^Pages:\s+1$/m);
    const tree = await drawn.structure();
    expect(tree).not.toContain('Cases completed');
    expect(tree).not.toMatch(/^\s*L \(block\)$/m);
    expect(tree).toContain('"has completed 0 cases of Emergency Medicine Simulations');
  });

  it('answers a drawing’s failure as an error, and the next drawing still draws', async () => {
    const broken = { ...certificate(), cases: null } as unknown as CertificatePdfInput;
    await expect(renderer.render(broken)).rejects.toThrow();
    expect(await (await rendered(certificate())).info()).toMatch(/^Pages:\s+1$/m);
  });
});
