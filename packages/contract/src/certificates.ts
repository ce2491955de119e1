import { z } from 'zod';
import { listQuerySchema, pagedSchema } from './list-query.js';
import { certificateSortFields } from './sort-fields.js';
import { requiredText } from './text-fields.js';

/**
 * CME certificates (issue #37): issued once per CME and participant when the participant
 * reaches its minimum of completed cases, each with a public code that anyone can check at
 * `/verify/{code}`; an administrator may revoke one, with a reason.
 */

/**
 * A code as it is written on a certificate: five groups of four of Crockford's base 32
 * (no I, L, O or U). Anything else is not looked up. Read leniently — lower case, spaces,
 * and the letters Crockford reads as digits — by `normalizeCertificateCode`.
 */
export const CERTIFICATE_CODE_PATTERN = /^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){4}$/;

/**
 * A code as a person may type it: upper-cased, spaces and dashes dropped, O read as 0 and I,
 * L as 1 (Crockford), then regrouped; null when it cannot be a code.
 */
export function normalizeCertificateCode(typed: string): string | null {
  const plain = typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (!/^[0-9A-HJKMNP-TV-Z]{20}$/.test(plain)) return null;
  return plain.match(/.{4}/g)!.join('-');
}

/**
 * The web app's public page that checks a code: the one address printed on a certificate,
 * linked from its email and the participant's dashboard.
 */
export const certificateVerifyPath = (code: string) => `/verify/${encodeURIComponent(code)}`;

/** What anyone with the code may see of a certificate (`GET /certificates/verify/{code}`). */
export const certificateVerification = z.object({
  /** Issued and not revoked. */
  valid: z.boolean(),
  code: z.string(),
  participant_name: z.string(),
  profession: z.string().nullable(),
  project_name: z.string(),
  client_name: z.string(),
  credits: z.number(),
  moc_points: z.number().nullable(),
  course_id: z.string().nullable(),
  issued_at: z.string(),
  revoked_at: z.string().nullable(),
});
export type CertificateVerification = z.infer<typeof certificateVerification>;

export const certificateCodeParams = z.object({
  code: z.string().max(64).describe('The certificate’s code, as printed (XXXX-XXXX-XXXX-XXXX-XXXX).'),
});

/** One of the participant's own certificates (`GET /participant/certificates`). */
export const participantCertificate = z.object({
  id: z.string().uuid(),
  /** Null once the CME it was issued for has been removed (the certificate stands). */
  cme_id: z.string().uuid().nullable(),
  project_id: z.string().uuid(),
  project_name: z.string(),
  credits: z.number(),
  moc_points: z.number().nullable(),
  code: z.string(),
  issued_at: z.string(),
  revoked_at: z.string().nullable(),
  /** The API path of its PDF. */
  pdf_url: z.string(),
  /** The public page that checks it. */
  verify_url: z.string(),
});
export type ParticipantCertificate = z.infer<typeof participantCertificate>;
export const participantCertificateList = z.object({ items: z.array(participantCertificate) });

/** A certificate as its project's administrators see it. */
export const certificate = z.object({
  id: z.string().uuid(),
  code: z.string(),
  cme_id: z.string().uuid().nullable(),
  user_id: z.string().uuid(),
  participant_name: z.string(),
  email: z.string(),
  employee_id: z.string().nullable(),
  profession: z.string().nullable(),
  credits: z.number(),
  moc_points: z.number().nullable(),
  course_id: z.string().nullable(),
  min_cases: z.number().int(),
  cases_count: z.number().int(),
  issued_at: z.string(),
  revoked_at: z.string().nullable(),
  revoked_reason: z.string().nullable(),
  revoked_by_name: z.string().nullable(),
});
export type Certificate = z.infer<typeof certificate>;

export const certificateStatuses = ['VALID', 'REVOKED'] as const;
export type CertificateStatus = (typeof certificateStatuses)[number];

export const certificateListQuery = listQuerySchema({
  sortable: certificateSortFields,
  defaultSort: [{ field: 'issued_at', direction: 'DESC' }],
  filter: z.strictObject({
    status: z.enum(certificateStatuses).optional(),
    cme_id: z.string().uuid().optional(),
  }),
});
export type CertificateListQuery = z.output<typeof certificateListQuery>;
export const certificatePage = pagedSchema(certificate);

/** Revoking a certificate: why, in words the accreditation body may read. */
export const revokeCertificateBody = z.strictObject({ reason: requiredText(1000) });
export type RevokeCertificateBody = z.input<typeof revokeCertificateBody>;
