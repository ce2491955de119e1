import { z } from 'zod';
import {
  certificate,
  certificateCodeParams,
  certificateListQuery,
  certificatePage,
  certificateVerification,
  participantCertificateList,
  revokeCertificateBody,
} from '../certificates.js';
import { idParams } from '../clients.js';
import { route } from '../route.js';

export const certificateRoutes = {
  /** Public and rate-limited: anyone holding a code may check it, no one may list codes. */
  verify: route({
    method: 'GET',
    path: '/certificates/verify/:code',
    access: 'public',
    audit: { kind: 'none', name: 'certificates.verify' },
    params: certificateCodeParams,
    reply: certificateVerification,
  }),
  mine: route({
    method: 'GET',
    path: '/participant/certificates',
    access: 'participant',
    reply: participantCertificateList,
  }),
  myPdf: route({
    method: 'GET',
    path: '/participant/certificates/:id/pdf',
    access: 'participant',
    params: idParams,
    produces: 'application/pdf',
  }),
  list: route({
    method: 'GET',
    path: '/projects/:id/certificates',
    access: 'admin',
    params: z.object({ id: idParams.shape.id.describe('The project’s id.') }),
    query: certificateListQuery,
    reply: certificatePage,
  }),
  pdf: route({
    method: 'GET',
    path: '/certificates/:id/pdf',
    access: 'admin',
    params: idParams,
    produces: 'application/pdf',
  }),
  revoke: route({
    method: 'POST',
    path: '/certificates/:id/revoke',
    access: 'admin',
    audit: { kind: 'change', name: 'certificates.revoke' },
    params: idParams,
    body: revokeCertificateBody,
    reply: certificate,
  }),
};
