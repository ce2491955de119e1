import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { certificateRoutes, reportRoutes, type CertificateStatus } from '@pss/contract';
import { call, callRaw } from '../../lib/api-client';
import { saveDownload } from '../../lib/download';

export const certificateKeys = {
  all: ['certificates'] as const,
  list: (projectId: string, params: object) => ['certificates', projectId, params] as const,
};

export interface CertificateListParams {
  page: number;
  limit: number;
  search?: string;
  sort?: string;
  status?: CertificateStatus;
}

export function certificateListQueryOptions(projectId: string, params: CertificateListParams) {
  const { status, ...query } = params;
  return queryOptions({
    queryKey: certificateKeys.list(projectId, params),
    queryFn: ({ signal }) =>
      call(
        certificateRoutes.list,
        { params: { id: projectId }, query: { ...query, filter: JSON.stringify(status ? { status } : {}) } },
        { signal },
      ),
    placeholderData: keepPreviousData,
    enabled: Boolean(projectId),
  });
}

export function useRevokeCertificate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; reason: string }) =>
      call(certificateRoutes.revoke, { params: { id: input.id }, body: { reason: input.reason } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: certificateKeys.all }),
  });
}

export function downloadCertificatePdf(id: string, code: string): Promise<void> {
  return saveDownload(callRaw(certificateRoutes.pdf, { params: { id } }), `certificate-${code}.pdf`);
}

/** The accreditation body's report of the project's certificates (with the list's status filter). */
export function downloadCertificatesReport(
  projectId: string,
  status: CertificateStatus | undefined,
  format: 'csv' | 'xlsx',
): Promise<void> {
  return saveDownload(
    callRaw(reportRoutes.certificates, { params: { projectId }, query: { format, ...(status ? { status } : {}) } }),
    `cme-certificates.${format}`,
  );
}
