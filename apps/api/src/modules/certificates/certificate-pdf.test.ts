import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
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
  };
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

  it('keeps a 200-character name, long titles and 60 cases on one page, inside its border', async () => {
    const name = Array.from({ length: 40 }, (_, i) => `Name${i % 10}`)
      .join(' ')
      .slice(0, 200);
    expect(name).toHaveLength(200);
    const cases = Array.from({ length: 60 }, (_, i) => ({
      case_name: `Case ${i + 1}: a long and winding presentation of abdominal pain in the night`,
      submitted_at: '2026-10-15T08:00:00.000Z',
    }));
    const drawn = await rendered(certificate({ participantName: name, cases }));
    expect(await drawn.info()).toMatch(/^Pages:\s+1$/m);
    const text = await drawn.flowing();
    expect(text).toContain(name);
    expect(text).toContain('has completed 60 cases');
    expect(text).toMatch(/and \d+ more/);

    const unbroken = await rendered(
      certificate({
        participantName: 'W'.repeat(200),
        profession: 'Consultant '.repeat(30),
        projectName: 'Project '.repeat(40),
        clientName: 'Client '.repeat(40),
        courseId: 'C'.repeat(150),
        verifyUrl: `https://sim.example.org/verify/${'X'.repeat(300)}`,
        cases,
      }),
    );
    expect(await unbroken.info()).toMatch(/^Pages:\s+1$/m);
    // Every word lies inside the page's border (18 pt from each edge).
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

  it('answers a drawing’s failure as an error, and the next drawing still draws', async () => {
    const broken = { ...certificate(), cases: null } as unknown as CertificatePdfInput;
    await expect(renderer.render(broken)).rejects.toThrow();
    expect(await (await rendered(certificate())).info()).toMatch(/^Pages:\s+1$/m);
  });
});
