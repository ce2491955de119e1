import {
  API_PREFIX,
  certificateRoutes,
  certificateVerifyPath,
  fillPath,
  normalizeCertificateCode,
  type Certificate,
  type CertificateListQuery,
  type CertificateStatus,
  type CertificateVerification,
  type Paged,
  type ParticipantCertificate,
} from '@pss/contract';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import type { AccessClaims } from '../../lib/tokens.js';
import { auditChanges } from '../audit/audit-scope.service.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { CertificatePdfInput } from './certificate-pdf.js';
import type {
  AdminCertificateRow,
  CertificateCursor,
  CertificateRow,
  CertificatesRepository,
} from './certificates.repository.js';

export type { AdminCertificateRow } from './certificates.repository.js';

/** Draws a certificate's PDF away from the event loop (`certificate-pdf.ts`). */
export interface CertificatePdfRenderer {
  render(input: CertificatePdfInput): Promise<Uint8Array>;
  /** Readies the drawing for a download to come (a list of certificates was read). */
  warm?(): void;
}

/** A certificate's PDF, ready to send. */
export interface CertificatePdf {
  bytes: Uint8Array;
  fileName: string;
}

function toAdmin(row: AdminCertificateRow): Certificate {
  return {
    id: row.id,
    code: row.code,
    cme_id: row.cmeId,
    user_id: row.userId,
    participant_name: row.participantName,
    email: row.email,
    employee_id: row.employeeId,
    profession: row.profession,
    credits: row.credits,
    moc_points: row.mocPoints,
    course_id: row.courseId,
    min_cases: row.minCases,
    cases_count: row.cases.length,
    issued_at: row.issuedAt.toISOString(),
    revoked_at: row.revokedAt?.toISOString() ?? null,
    revoked_reason: row.revokedReason,
    revoked_by_name: row.revokedByName,
  };
}

/**
 * CME certificates once issued (issuing is db/certificates.ts, in the submit's transaction):
 * the public check of a code, the participant's own list and PDFs, and the project's list,
 * revocation and accreditation report for its administrators.
 */
export function createCertificatesService(deps: {
  certificates: CertificatesRepository;
  projects: Pick<ProjectsService, 'requireVisible'>;
  pdf: CertificatePdfRenderer;
  clock: Clock;
  publicUrl: string;
}) {
  const { certificates } = deps;

  /** A certificate of a project the caller may see; another client's is "not found". */
  async function requireVisible(caller: AccessClaims, id: string): Promise<CertificateRow> {
    const row = await certificates.findById(id);
    if (!row) throw new AppError('NOT_FOUND');
    await deps.projects.requireVisible(caller, row.projectId).catch(() => {
      throw new AppError('NOT_FOUND');
    });
    return row;
  }

  async function pdfOf(row: CertificateRow): Promise<CertificatePdf> {
    const input: CertificatePdfInput = {
      participantName: row.participantName,
      profession: row.profession,
      projectName: row.projectName,
      clientName: row.clientName,
      credits: row.credits,
      mocPoints: row.mocPoints,
      courseId: row.courseId,
      issuedAt: row.issuedAt.toISOString(),
      revokedAt: row.revokedAt?.toISOString() ?? null,
      code: row.code,
      verifyUrl: `${deps.publicUrl}${certificateVerifyPath(row.code)}`,
      cases: row.cases,
    };
    const bytes = await deps.pdf.render(input).catch(() => {
      // The drawing process failed or passed its limit; it is restarted for the next one.
      throw new AppError('INTERNAL_ERROR', { message: 'The certificate could not be drawn. Please try again.' });
    });
    return { bytes, fileName: `certificate-${row.code}.pdf` };
  }

  return {
    /** Anyone's check of a code: what it certifies and whether it stands. Unknown or malformed: NOT_FOUND. */
    async verify(typed: string): Promise<CertificateVerification> {
      const code = normalizeCertificateCode(typed);
      const row = code ? await certificates.findByCode(code) : undefined;
      if (!row) throw new AppError('NOT_FOUND', { message: 'No certificate has this code.' });
      return {
        valid: row.revokedAt === null,
        code: row.code,
        participant_name: row.participantName,
        profession: row.profession,
        project_name: row.projectName,
        client_name: row.clientName,
        credits: row.credits,
        moc_points: row.mocPoints,
        course_id: row.courseId,
        issued_at: row.issuedAt.toISOString(),
        revoked_at: row.revokedAt?.toISOString() ?? null,
      };
    },

    async mine(caller: AccessClaims): Promise<{ items: ParticipantCertificate[] }> {
      const rows = await certificates.ofUser(caller.userId);
      // A download is likely next: its drawing starts now, while the list is read.
      if (rows.length) deps.pdf.warm?.();
      return {
        items: rows.map((row) => ({
          id: row.id,
          cme_id: row.cmeId,
          project_id: row.projectId,
          project_name: row.projectName,
          credits: row.credits,
          moc_points: row.mocPoints,
          code: row.code,
          issued_at: row.issuedAt.toISOString(),
          revoked_at: row.revokedAt?.toISOString() ?? null,
          pdf_url: API_PREFIX + fillPath(certificateRoutes.myPdf, { id: row.id }),
          verify_url: `${deps.publicUrl}${certificateVerifyPath(row.code)}`,
        })),
      };
    },

    /** The participant's own certificate as a PDF; anyone else's is NOT_FOUND. */
    async myPdf(caller: AccessClaims, id: string): Promise<CertificatePdf> {
      const row = await certificates.findById(id);
      if (!row || row.userId !== caller.userId) throw new AppError('NOT_FOUND');
      return pdfOf(row);
    },

    async pdf(caller: AccessClaims, id: string): Promise<CertificatePdf> {
      return pdfOf(await requireVisible(caller, id));
    },

    async list(caller: AccessClaims, projectId: string, query: CertificateListQuery): Promise<Paged<Certificate>> {
      await deps.projects.requireVisible(caller, projectId);
      const page = await certificates.listForProject(projectId, query);
      if (page.items.length) deps.pdf.warm?.();
      return { ...page, items: page.items.map(toAdmin) };
    },

    /** Revokes a certificate, with the reason; one revoked already is CHANGES_FORBIDDEN (its first reason stands). */
    async revoke(caller: AccessClaims, id: string, reason: string): Promise<Certificate> {
      await requireVisible(caller, id);
      const revoked = await certificates.revoke(id, reason, caller.userId, deps.clock.now());
      if (!revoked) throw new AppError('CHANGES_FORBIDDEN', { message: 'This certificate is already revoked.' });
      const after = toAdmin((await certificates.findAdminRow(id))!);
      // The trail keeps what the revocation set, under the names the screens show.
      auditChanges(
        { revoked_at: null, revoked_reason: null, revoked_by_name: null },
        { revoked_at: after.revoked_at, revoked_reason: after.revoked_reason, revoked_by_name: after.revoked_by_name },
      );
      return after;
    },

    /** A project's certificates in issue order, a page at a time (the accreditation report). */
    async *reportPages(projectId: string, status: CertificateStatus | undefined): AsyncGenerator<Certificate[]> {
      const limit = 500;
      let cursor: CertificateCursor | null = null;
      for (;;) {
        const rows = await certificates.reportPage(projectId, status, cursor, limit);
        if (rows.length) yield rows.map(toAdmin);
        if (rows.length < limit) return;
        const last = rows.at(-1)!;
        cursor = { issuedAt: last.issuedAt, id: last.id };
      }
    },
  };
}

export type CertificatesService = ReturnType<typeof createCertificatesService>;
