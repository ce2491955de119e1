import type { Certificate, CertificateStatus } from '@pss/contract';
import type { Cell, Column, Table } from '../../lib/table-writer.js';
import type { AccessClaims } from '../../lib/tokens.js';
import type { ReportContext } from './report-context.js';

/**
 * The accreditation body's report of a project's CME certificates: one row per certificate in
 * the order issued, with what it certifies as recorded when it was issued (the participant's
 * name and profession then, the credits and course id then) and whether it still stands.
 */
export function certificatesReport(context: ReportContext) {
  const { deps, projectFor, fileName } = context;

  return {
    async certificates(caller: AccessClaims, projectId: string, status: CertificateStatus | undefined): Promise<Table> {
      const project = await projectFor(caller, projectId);
      const columns: Column[] = [
        { header: 'Participant', width: 28 },
        { header: 'Email', width: 30 },
        { header: 'User ID', width: 12 },
        { header: 'Profession', width: 11 },
        { header: 'Course ID', width: 14 },
        { header: 'Credits', kind: 'number' },
        { header: 'MOC points', kind: 'number' },
        { header: 'Cases required', kind: 'number' },
        { header: 'Cases completed', kind: 'number' },
        { header: 'Issued', kind: 'datetime' },
        { header: 'Certificate code', width: 26 },
        { header: 'Status', width: 9 },
        { header: 'Revoked', kind: 'datetime' },
        { header: 'Revocation reason', width: 40 },
      ];
      const cells = (c: Certificate): Cell[] => [
        c.participant_name,
        c.email,
        c.employee_id,
        c.profession,
        c.course_id,
        c.credits,
        c.moc_points,
        c.min_cases,
        c.cases_count,
        new Date(c.issued_at),
        c.code,
        c.revoked_at ? 'Revoked' : 'Valid',
        c.revoked_at ? new Date(c.revoked_at) : null,
        c.revoked_reason,
      ];
      async function* rows(): AsyncGenerator<Cell[][]> {
        for await (const page of deps.certificates.reportPages(projectId, status)) yield page.map(cells);
      }
      return { title: 'CME certificates', fileName: fileName(project, 'cme-certificates'), columns, rows: rows() };
    },
  };
}
