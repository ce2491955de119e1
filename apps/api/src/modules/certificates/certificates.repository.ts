import { and, asc, eq, gt, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { CertificateListQuery, CertificateStatus } from '@pss/contract';
import type { Db } from '../../db/client.js';
import { certificates, users } from '../../db/schema/index.js';
import { countAll, orderByTerms, runPaged, searchCondition } from '../../lib/list-query.js';

export type CertificateRow = typeof certificates.$inferSelect;

/** A certificate with the participant's current email and user ID and who revoked it. */
export interface AdminCertificateRow extends CertificateRow {
  email: string;
  employeeId: string | null;
  revokedByName: string | null;
}

const revoker = alias(users, 'revoker');

const adminColumns = {
  certificate: certificates,
  email: users.email,
  employeeId: users.employeeId,
  revokedByName: sql<string | null>`nullif(trim(${revoker.firstName} || ' ' || ${revoker.lastName}), '')`,
};

const sortColumns = {
  issued_at: certificates.issuedAt,
  participant_name: certificates.participantName,
  credits: certificates.credits,
};

function statusCondition(status: CertificateStatus | undefined): SQL | undefined {
  if (status === 'VALID') return isNull(certificates.revokedAt);
  if (status === 'REVOKED') return isNotNull(certificates.revokedAt);
  return undefined;
}

const flatten = (row: {
  certificate: CertificateRow;
  email: string;
  employeeId: string | null;
  revokedByName: string | null;
}): AdminCertificateRow => ({
  ...row.certificate,
  email: row.email,
  employeeId: row.employeeId,
  revokedByName: row.revokedByName,
});

/** Where a page of the accreditation report ends: the next page starts after it. */
export interface CertificateCursor {
  issuedAt: Date;
  id: string;
}

export function createCertificatesRepository(db: Db) {
  const adminSelect = () =>
    db
      .select(adminColumns)
      .from(certificates)
      .innerJoin(users, eq(users.id, certificates.userId))
      .leftJoin(revoker, eq(revoker.id, certificates.revokedBy));

  return {
    async findByCode(code: string): Promise<CertificateRow | undefined> {
      const [row] = await db.select().from(certificates).where(eq(certificates.code, code));
      return row;
    },

    async findById(id: string): Promise<CertificateRow | undefined> {
      const [row] = await db.select().from(certificates).where(eq(certificates.id, id));
      return row;
    },

    async findAdminRow(id: string): Promise<AdminCertificateRow | undefined> {
      const [row] = await adminSelect().where(eq(certificates.id, id));
      return row && flatten(row);
    },

    /** A participant's own certificates, newest first (a participant holds a handful). */
    ofUser: (userId: string) =>
      db
        .select()
        .from(certificates)
        .where(eq(certificates.userId, userId))
        .orderBy(sql`${certificates.issuedAt} desc`, certificates.id),

    listForProject(projectId: string, query: CertificateListQuery) {
      const where = and(
        eq(certificates.projectId, projectId),
        statusCondition(query.filter.status),
        query.filter.cme_id === undefined ? undefined : eq(certificates.cmeId, query.filter.cme_id),
        searchCondition(query.search, [certificates.participantName, users.email, certificates.code]),
      );
      return runPaged(
        query,
        async (limit, offset) =>
          (
            await adminSelect()
              .where(where)
              .orderBy(...orderByTerms(query.sort, sortColumns, certificates.id))
              .limit(limit)
              .offset(offset)
          ).map(flatten),
        async () =>
          (
            await db
              .select({ n: countAll })
              .from(certificates)
              .innerJoin(users, eq(users.id, certificates.userId))
              .where(where)
          )[0]?.n ?? 0,
      );
    },

    /** One page of a project's certificates in issue order, after `cursor` (the report's keyset). */
    async reportPage(
      projectId: string,
      status: CertificateStatus | undefined,
      cursor: CertificateCursor | null,
      limit: number,
    ): Promise<AdminCertificateRow[]> {
      const after = cursor
        ? or(
            gt(certificates.issuedAt, cursor.issuedAt),
            and(eq(certificates.issuedAt, cursor.issuedAt), gt(certificates.id, cursor.id)),
          )
        : undefined;
      const rows = await adminSelect()
        .where(and(eq(certificates.projectId, projectId), statusCondition(status), after))
        .orderBy(asc(certificates.issuedAt), asc(certificates.id))
        .limit(limit);
      return rows.map(flatten);
    },

    /**
     * Revokes a certificate that is not revoked yet; answers false when it already was (the
     * first revocation and its reason stand).
     */
    async revoke(id: string, reason: string, by: string, at: Date): Promise<boolean> {
      const rows = await db
        .update(certificates)
        .set({ revokedAt: at, revokedReason: reason, revokedBy: by })
        .where(and(eq(certificates.id, id), isNull(certificates.revokedAt)))
        .returning({ id: certificates.id });
      return rows.length > 0;
    },
  };
}

export type CertificatesRepository = ReturnType<typeof createCertificatesRepository>;
