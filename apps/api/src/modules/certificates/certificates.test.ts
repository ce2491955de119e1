import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { Certificate, CertificateVerification, CaseDocument, Paged, ParticipantCertificate } from '@pss/contract';
import { and, eq } from 'drizzle-orm';
import { auditEvents } from '../../db/schema/index.js';
import type { UserRow } from '../users/users.service.js';
import { call, madeBefore, twoClientsContext, type Caller } from '../../../test/kit.js';
import { participantWork } from '../../../test/participant-work.js';
import { createUser } from '../../../test/test-app.js';

/**
 * A certificate once issued (issue #37): the participant's list and PDF, anyone's check of its
 * code, and the administrators' list, revocation and accreditation report — each refused to
 * those who may not.
 */
const { ctx, f } = twoClientsContext({ now: '2026-03-03T10:00:00Z' });
const staff = madeBefore(() => createUser(ctx.db, { role: 'SUPERADMIN' }));
const work = participantWork(ctx, staff);
const temp = madeBefore(async () => ({ folder: await mkdtemp(path.join(tmpdir(), 'pss-certificates-')) }));
afterAll(() => rm(temp.folder, { recursive: true, force: true }));
/** Calls the API as anyone: a user, a bearer header, or no one. */
const api = (method: 'GET' | 'POST', url: string, caller: Caller = {}, payload?: object) =>
  call(ctx, method, url, caller, payload);

const fixture = madeBefore(async () => {
  const p = await work.project(f.clientA.id, { name: 'Sepsis Essentials' });
  const docs: CaseDocument[] = [];
  for (const name of ['One', 'Two']) docs.push(await work.publishedCase(p, 1, { name }));
  const created = await api('POST', '/cmes', staff, {
    project_id: p.id,
    min_cases: 2,
    credits: 2.5,
    moc: true,
    totera_course_id: 'SEP-7',
  });
  expect(created.statusCode, created.body).toBe(201);
  const earn = async (firstName: string, lastName: string): Promise<UserRow> => {
    const user = await work.enrol(p, f.clientA.id, {}, { firstName, lastName });
    for (const doc of docs) await work.complete(user, doc);
    return user;
  };
  const ada = await earn('Ada', 'Lovelace');
  const grace = await earn('Grace', 'Hopper');
  const mine = async (user: UserRow) =>
    (await api('GET', '/participant/certificates', user)).json<{ items: ParticipantCertificate[] }>().items;
  return { p, ada, grace, adaCertificate: (await mine(ada))[0]!, graceCertificate: (await mine(grace))[0]! };
});

async function pdfText(bytes: Buffer): Promise<string> {
  const file = path.join(temp.folder, `${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(file, bytes);
  return (await promisify(execFile)('pdftotext', ['-layout', file, '-'])).stdout;
}

const list = (caller: Caller, query = '') => api('GET', `/projects/${fixture.p.id}/certificates${query}`, caller);

describe('a participant’s certificates', () => {
  it('lists their own with the links to the PDF and to the public check', async () => {
    const { ada, adaCertificate } = fixture;
    const reply = await api('GET', '/participant/certificates', ada);
    expect(reply.statusCode).toBe(200);
    expect(reply.json<{ items: ParticipantCertificate[] }>().items).toEqual([
      expect.objectContaining({
        project_name: 'Sepsis Essentials',
        credits: 2.5,
        moc_points: 2.5,
        revoked_at: null,
        pdf_url: `/api/participant/certificates/${adaCertificate.id}/pdf`,
        verify_url: expect.stringMatching(new RegExp(`/verify/${adaCertificate.code}$`)),
      }),
    ]);
  });

  it('downloads their own as a PDF that reads back, and never another’s', async () => {
    const { ada, adaCertificate, graceCertificate } = fixture;
    const reply = await api('GET', `/participant/certificates/${adaCertificate.id}/pdf`, ada);
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toBe('application/pdf');
    expect(reply.headers['content-disposition']).toContain(`certificate-${adaCertificate.code}.pdf`);
    const text = await pdfText(reply.rawPayload);
    expect(text).toContain('Ada Lovelace');
    expect(text).toContain('Sepsis Essentials');
    expect(text).toContain(adaCertificate.code);

    const other = await api('GET', `/participant/certificates/${graceCertificate.id}/pdf`, ada);
    expect(other.statusCode).toBe(404);
    expect(other.json().errorCode).toBe('NOT_FOUND');
    const unknown = await api('GET', '/participant/certificates/not-a-uuid/pdf', ada);
    expect(unknown.json().errorCode).toBe('VALIDATION_ERROR');
    expect((await api('GET', '/participant/certificates', f.asAdminA)).statusCode).toBe(403);
  });
});

describe('the administrators’ certificates', () => {
  it('are listed, searched and filtered for the project’s own client only', async () => {
    const { adaCertificate } = fixture;
    const all = await list(f.asAdminA);
    expect(all.statusCode).toBe(200);
    const page = all.json<Paged<Certificate>>();
    expect(page.total).toBe(2);
    expect(page.items[0]).toMatchObject({ participant_name: expect.any(String), min_cases: 2, cases_count: 2 });

    const byCode = await list(f.asAdminA, `?search=${adaCertificate.code.slice(5, 14)}`);
    expect(byCode.json<Paged<Certificate>>().items.map((c) => c.participant_name)).toEqual(['Ada Lovelace']);
    const sorted = await list(f.asAdminA, '?sort=participant_name:ASC');
    expect(sorted.json<Paged<Certificate>>().items.map((c) => c.participant_name)).toEqual([
      'Ada Lovelace',
      'Grace Hopper',
    ]);

    expect((await list(f.asAdminA, '?sort=email:ASC')).json().errorCode).toBe('VALIDATION_ERROR');
    expect((await list(f.asAdminA, `?filter=${encodeURIComponent('{"status":"LOST"}')}`)).statusCode).toBe(400);
    expect((await list(f.asAdminB)).statusCode).toBe(404);
    expect((await list(fixture.ada)).statusCode).toBe(403);
    expect((await list({})).statusCode).toBe(401);
  });

  it('revokes one with a reason; its check, its PDF, the list and the report say so', async () => {
    const { ada, graceCertificate } = fixture;
    const path = `/certificates/${graceCertificate.id}/revoke`;
    expect((await api('POST', path, f.asAdminB, { reason: 'Not theirs' })).statusCode).toBe(404);
    expect((await api('POST', path, ada, { reason: 'Not theirs' })).statusCode).toBe(403);
    const blank = await api('POST', path, f.asAdminA, { reason: '   ' });
    expect(blank.json().errorCode).toBe('VALIDATION_ERROR');
    expect((await api('POST', path, f.asAdminA, {})).json().errorCode).toBe('VALIDATION_ERROR');
    const before = await api('GET', `/certificates/verify/${graceCertificate.code}`);
    expect(before.json<CertificateVerification>().valid).toBe(true);

    ctx.clock.set('2026-03-03T10:05:00Z');
    const revoked = await api('POST', path, f.asAdminA, { reason: 'Cases answered by a colleague' });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json<Certificate>()).toMatchObject({
      revoked_at: '2026-03-03T10:05:00.000Z',
      revoked_reason: 'Cases answered by a colleague',
    });
    const again = await api('POST', path, f.asAdminA, { reason: 'Twice' });
    expect(again.json().errorCode).toBe('CHANGES_FORBIDDEN');
    // The audit trail has the revocation: what it set, on which certificate, in which project.
    const [event] = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'certificates.revoke'), eq(auditEvents.outcome, 'success')));
    expect(event).toMatchObject({ targetType: 'certificate', targetId: graceCertificate.id, projectId: fixture.p.id });
    expect(event!.changes).toMatchObject({
      revoked_at: { before: null, after: '2026-03-03T10:05:00.000Z' },
      revoked_reason: { before: null, after: 'Cases answered by a colleague' },
    });

    const check = await api('GET', `/certificates/verify/${graceCertificate.code}`);
    expect(check.json<CertificateVerification>()).toMatchObject({
      valid: false,
      participant_name: 'Grace Hopper',
      revoked_at: '2026-03-03T10:05:00.000Z',
    });
    const pdf = await api('GET', `/certificates/${graceCertificate.id}/pdf`, f.asAdminA);
    expect(pdf.statusCode).toBe(200);
    expect(await pdfText(pdf.rawPayload)).toMatch(/REVOKED/);
    expect((await api('GET', `/certificates/${graceCertificate.id}/pdf`, f.asAdminB)).statusCode).toBe(404);

    const valid = await list(f.asAdminA, `?filter=${encodeURIComponent('{"status":"VALID"}')}`);
    expect(valid.json<Paged<Certificate>>().items.map((c) => c.participant_name)).toEqual(['Ada Lovelace']);
    const gone = await list(f.asAdminA, `?filter=${encodeURIComponent('{"status":"REVOKED"}')}`);
    expect(gone.json<Paged<Certificate>>().items.map((c) => c.revoked_reason)).toEqual([
      'Cases answered by a colleague',
    ]);
  });

  it('download as the accreditation report (CSV and XLSX), for the project’s own client only', async () => {
    const { p, adaCertificate } = fixture;
    const csv = await api('GET', `/reports/${p.id}/certificates`, f.asAdminA);
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'Participant,Email,User ID,Profession,Course ID,Credits,MOC points,Cases required,Cases completed,Issued,' +
        'Certificate code,Status,Revoked,Revocation reason',
    );
    expect(lines).toHaveLength(3);
    expect(csv.body).toContain(adaCertificate.code);
    expect(csv.body).toContain('SEP-7,2.5,2.5,2,2,');
    const revokedOnly = await api('GET', `/reports/${p.id}/certificates?status=REVOKED`, f.asAdminA);
    expect(revokedOnly.body.trim().split('\r\n')).toHaveLength(2);
    expect(revokedOnly.body).toContain('Revoked');
    const xlsx = await api('GET', `/reports/${p.id}/certificates?format=xlsx`, f.asAdminA);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    expect((await api('GET', `/reports/${p.id}/certificates?status=LOST`, f.asAdminA)).statusCode).toBe(400);
    expect((await api('GET', `/reports/${p.id}/certificates`, f.asAdminB)).statusCode).toBe(404);
  });
});

describe('the public check of a code', () => {
  it('answers anyone, as the code is typed; an unknown or malformed code is not found', async () => {
    const { adaCertificate } = fixture;
    const typed = adaCertificate.code.toLowerCase().replace(/-/g, ' ');
    const reply = await api('GET', `/certificates/verify/${encodeURIComponent(typed)}`);
    expect(reply.statusCode).toBe(200);
    const answer = reply.json<CertificateVerification>();
    expect(Object.keys(answer).sort()).toEqual(
      ['client_name', 'code', 'course_id', 'credits', 'issued_at', 'moc_points', 'participant_name', 'profession']
        .concat(['project_name', 'revoked_at', 'valid'])
        .sort(),
    );
    expect(answer).toMatchObject({
      valid: true,
      code: adaCertificate.code,
      participant_name: 'Ada Lovelace',
      project_name: 'Sepsis Essentials',
      client_name: f.clientA.name,
      credits: 2.5,
      moc_points: 2.5,
      course_id: 'SEP-7',
      issued_at: adaCertificate.issued_at,
      revoked_at: null,
    });
    for (const code of ['0000-0000-0000-0000-0000', '%3Cscript%3E', 'x'.repeat(64)]) {
      const missing = await api('GET', `/certificates/verify/${code}`);
      expect(missing.statusCode, code).toBe(404);
      expect(missing.json().errorCode).toBe('NOT_FOUND');
    }
    expect((await api('GET', `/certificates/verify/${'x'.repeat(65)}`)).statusCode).toBe(400);
  });

  // Its limit, counted by every process together: modules/call-limits/call-limits.test.ts.
});
