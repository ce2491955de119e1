import type { FastifyInstance, FastifyReply } from 'fastify';
import { certificateRoutes } from '@pss/contract';
import { caller } from '../../lib/access-control.js';
import { contractRoutes } from '../../lib/contract-routes.js';
import type { CertificatePdf, CertificatesService } from './certificates.service.js';

const tags = ['CME certificates'];

function sendPdf(reply: FastifyReply, pdf: CertificatePdf): FastifyReply {
  return reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', `attachment; filename="${pdf.fileName}"`)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .send(Buffer.from(pdf.bytes.buffer, pdf.bytes.byteOffset, pdf.bytes.byteLength));
}

export function registerCertificatesRoutes(app: FastifyInstance, service: CertificatesService): void {
  const implement = contractRoutes(app);

  implement(
    certificateRoutes.verify,
    {
      tags,
      summary: 'Check a certificate by its code (public)',
      description:
        'Anyone holding a code may check it: who, for which project and how many credits, when it was issued, and ' +
        'whether it still stands (`valid` is false once revoked, with `revoked_at`). The code is read as a person ' +
        'types it (any case, with or without dashes, O for 0, I or L for 1). An unknown code is 404 NOT_FOUND. ' +
        'Limited as every anonymous call is (ANONYMOUS_CALLS_PER_MINUTE from one address, 30 by default, and ' +
        'ANONYMOUS_CALLS_PER_MINUTE_TOTAL from all, counted in the database by every process together): then 429 ' +
        'TOO_MANY_REQUESTS with Retry-After. A person checks a certificate or two; a code has 100 random bits, so ' +
        'guessing one is out of reach, and a script reading certificates by trying codes is stopped at once.',
      limited: true,
    },
    async (request) => service.verify(request.params.code),
  );

  implement(
    certificateRoutes.mine,
    {
      tags,
      summary: 'The participant’s CME certificates, newest first, each with its PDF and verification link',
    },
    async (request) => service.mine(caller(request)),
  );

  implement(
    certificateRoutes.myPdf,
    {
      tags,
      summary: 'One of the participant’s certificates as a PDF',
      description:
        'Drawn when asked, from what the certificate recorded when it was issued, away from the server’s event ' +
        'loop. A revoked certificate says so on its page. Another participant’s: 404 NOT_FOUND.',
    },
    async (request, reply) => sendPdf(reply, await service.myPdf(caller(request), request.params.id)),
  );

  implement(
    certificateRoutes.list,
    {
      tags,
      summary: 'A project’s CME certificates (paged; search by name, email or code; filter by status or CME)',
      description:
        'Sortable by `issued_at` (newest first by default), `participant_name` and `credits`. `filter` takes ' +
        '`status` (VALID or REVOKED) and `cme_id`.',
    },
    async (request) => service.list(caller(request), request.params.id, request.query),
  );

  implement(
    certificateRoutes.pdf,
    {
      tags,
      summary: 'A certificate of the administrator’s project as a PDF',
      description: 'The page the participant downloads. A certificate of another client’s project: 404 NOT_FOUND.',
    },
    async (request, reply) => sendPdf(reply, await service.pdf(caller(request), request.params.id)),
  );

  implement(
    certificateRoutes.revoke,
    {
      tags,
      summary: 'Revoke a certificate, with the reason',
      description:
        'The certificate keeps its row: its check then answers `valid: false` with when it was revoked, and its PDF ' +
        'says so. When, why and by whom are recorded on it and in the audit trail. One already revoked is 403 ' +
        'CHANGES_FORBIDDEN (its first reason stands).',
    },
    async (request) => service.revoke(caller(request), request.params.id, request.body.reason),
  );
}
