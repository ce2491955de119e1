import { afterEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../lib/clock.js';
import type { AccessClaims } from '../../lib/tokens.js';
import { createCertificateRenderer, type CertificateRenderer } from './certificate-renderer.js';
import type { CertificatesRepository, CertificateRow } from './certificates.repository.js';
import { createCertificatesService } from './certificates.service.js';

/**
 * Issue #48: a certificate's first download waited for its drawing process to start and load
 * pdfkit and the fonts. Reading a list of certificates readies that process (a drawing of its
 * own), so the download that follows finds it up; and it stays up while idle for minutes, not
 * half a minute. Told by whether the process runs, not by how long anything took.
 */
let renderer: CertificateRenderer | null = null;
afterEach(async () => {
  await renderer?.close();
  renderer = null;
});

const until = async (done: () => boolean) => {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
};

const row = {
  id: 'c1',
  code: 'ABCD-EFGH',
  cmeId: 'cme-1',
  projectId: 'p1',
  userId: 'u1',
  participantName: 'Dana Whitfield',
  profession: null,
  projectName: 'Project',
  clientName: 'Client',
  credits: 1,
  mocPoints: null,
  courseId: null,
  minCases: 1,
  cases: [{ case_id: 'k1', case_name: 'Case', submitted_at: '2026-11-29T10:00:00.000Z' }],
  issuedAt: new Date('2026-11-29T10:00:00Z'),
  revokedAt: null,
} as unknown as CertificateRow;

describe("the certificate's drawing process, readied ahead of a download", () => {
  it('starts on warm(), once; the download after it is drawn by the same process', async () => {
    renderer = createCertificateRenderer();
    expect(renderer.running()).toBe(false);
    expect(renderer.warm()).toBe(true);
    expect(renderer.running()).toBe(true);
    // Up already: a second warm-up and the download start nothing new.
    expect(renderer.warm()).toBe(false);
    const pdf = await renderer.render({
      participantName: 'Dana Whitfield',
      profession: null,
      projectName: 'Project',
      clientName: 'Client',
      credits: 1,
      mocPoints: null,
      courseId: null,
      issuedAt: '2026-11-29T10:00:00.000Z',
      revokedAt: null,
      code: 'ABCD-EFGH',
      verifyUrl: 'http://localhost/verify/ABCD-EFGH',
      cases: [],
    });
    expect(Buffer.from(pdf).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(renderer.running()).toBe(true);
  });

  it('keeps the process past the half minute the thumbnails’ pool keeps its own', async () => {
    renderer = createCertificateRenderer({ idleMs: 300 });
    renderer.warm();
    await until(() => !renderer!.running());
    expect(renderer.running()).toBe(false);
    // The default is minutes.
    const { CERTIFICATE_IDLE_MS } = await import('./certificate-renderer.js');
    expect(CERTIFICATE_IDLE_MS).toBeGreaterThanOrEqual(5 * 60_000);
  });

  it('is readied by reading a list of certificates, the project’s and the participant’s own, not by an empty one', async () => {
    const warmed: string[] = [];
    let rows: CertificateRow[] = [row];
    const service = createCertificatesService({
      certificates: {
        ofUser: async () => rows,
        listForProject: async () => ({ items: rows, total: rows.length, page: 1, limit: 25 }),
      } as unknown as CertificatesRepository,
      projects: { requireVisible: async () => undefined } as never,
      pdf: { render: async () => new Uint8Array(), warm: () => void warmed.push('warm') },
      clock: fixedClock('2026-12-07T12:00:00Z'),
      publicUrl: 'http://localhost',
    });
    const caller = { userId: 'u1', role: 'SUPERADMIN' } as AccessClaims;
    await service.list(caller, 'p1', { page: 1, limit: 25, filter: {} } as never);
    await service.mine(caller);
    expect(warmed).toEqual(['warm', 'warm']);
    rows = [];
    await service.list(caller, 'p1', { page: 1, limit: 25, filter: {} } as never);
    await service.mine(caller);
    expect(warmed).toHaveLength(2);
  });
});
