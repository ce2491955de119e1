import { useState } from 'react';
import { Button, Group, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { certificateSortFields, type Certificate, type CertificateStatus } from '@pss/contract';
import { DataTable, type Column } from '../../components/data-table';
import { StatusBadge } from '../../components/status-badge';
import { errorMessage } from '../../lib/api-error';
import { formatDate } from '../../lib/format';
import { useTranslation } from '../../lib/i18n';
import { useParams } from '../../lib/screen-router';
import { toastError } from '../../lib/toasts';
import { useListState } from '../../lib/use-list-state';
import { useListTable } from '../../lib/use-list-table';
import { useUrlParam } from '../../lib/use-url-param';
import { certificateListQueryOptions, downloadCertificatePdf, downloadCertificatesReport } from './certificates-api';
import { RevokeCertificateModal } from './revoke-certificate-modal';

/**
 * The project's CME certificates (issue #37): who earned which, searchable and filtered by
 * status; each one's PDF, its revocation with a reason, and the accreditation body's report.
 */
export function CertificatesPage() {
  const { t } = useTranslation();
  const { projectId = '' } = useParams();
  const list = useListState({ sortable: certificateSortFields });
  const [statusParam, setStatusParam] = useUrlParam('status');
  const status = statusParam === 'VALID' || statusParam === 'REVOKED' ? (statusParam as CertificateStatus) : undefined;
  const certificates = useQuery(certificateListQueryOptions(projectId, { ...list.query, status }));
  const { table, search } = useListTable(list, certificates, {
    empty: { none: t('certificates.empty'), noMatches: t('certificates.noMatches') },
    filtered: Boolean(status),
  });
  const [revoking, setRevoking] = useState<Certificate | null>(null);

  const download = (work: Promise<void>) => void work.catch((error: unknown) => toastError(errorMessage(error, t)));

  const columns: Column<Certificate>[] = [
    {
      key: 'participant',
      header: t('certificates.participant'),
      sortField: 'participant_name',
      render: (c) => (
        <div>
          <Text size="sm" fw={500}>
            {c.participant_name}
          </Text>
          <Text size="xs" c="dimmed">
            {c.email}
          </Text>
        </div>
      ),
    },
    { key: 'credits', header: t('certificates.credits'), sortField: 'credits', render: (c) => c.credits },
    { key: 'issued', header: t('certificates.issued'), sortField: 'issued_at', render: (c) => formatDate(c.issued_at) },
    {
      key: 'code',
      header: t('certificates.code'),
      render: (c) => (
        <Text ff="monospace" size="sm" style={{ whiteSpace: 'nowrap' }}>
          {c.code}
        </Text>
      ),
    },
    {
      key: 'status',
      header: t('certificates.status'),
      render: (c) =>
        c.revoked_at ? (
          <Stack gap={2}>
            <StatusBadge color="red">{t('certificates.revoked')}</StatusBadge>
            <Text size="xs" c="dimmed">
              {t('certificates.revokedOn', {
                date: formatDate(c.revoked_at),
                name: c.revoked_by_name ?? '—',
                reason: c.revoked_reason ?? '',
              })}
            </Text>
          </Stack>
        ) : (
          <StatusBadge color="teal">{t('certificates.valid')}</StatusBadge>
        ),
    },
    {
      key: 'actions',
      header: t('common.actions'),
      render: (c) => (
        <Group gap={4} wrap="nowrap">
          <Button
            size="compact-sm"
            variant="subtle"
            onClick={() => download(downloadCertificatePdf(c.id, c.code))}
            aria-label={t('certificates.downloadPdfOf', { name: c.participant_name })}
          >
            {t('certificates.downloadPdf')}
          </Button>
          {!c.revoked_at && (
            <Button
              size="compact-sm"
              variant="subtle"
              color="red"
              onClick={() => setRevoking(c)}
              aria-label={t('certificates.revokeOf', { name: c.participant_name })}
            >
              {t('certificates.revoke')}
            </Button>
          )}
        </Group>
      ),
    },
  ];

  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <div>
          <Title order={3}>{t('certificates.title')}</Title>
          <Text size="sm" c="dimmed">
            {t('certificates.help')}
          </Text>
        </div>
        <Group gap="xs">
          <Text size="sm">{t('certificates.report')}:</Text>
          <Button variant="default" onClick={() => download(downloadCertificatesReport(projectId, status, 'csv'))}>
            CSV
          </Button>
          <Button variant="default" onClick={() => download(downloadCertificatesReport(projectId, status, 'xlsx'))}>
            XLSX
          </Button>
        </Group>
      </Group>
      <Group wrap="wrap">
        <TextInput {...search} placeholder={t('certificates.searchPlaceholder')} w={320} />
        <SegmentedControl
          aria-label={t('certificates.statusFilter')}
          value={status ?? 'ALL'}
          onChange={(value) => {
            list.setPage(1);
            setStatusParam(value === 'ALL' ? null : value);
          }}
          data={[
            { value: 'ALL', label: t('certificates.all') },
            { value: 'VALID', label: t('certificates.valid') },
            { value: 'REVOKED', label: t('certificates.revoked') },
          ]}
        />
      </Group>
      <DataTable caption={t('certificates.title')} columns={columns} getRowId={(c) => c.id} {...table} />
      {revoking && <RevokeCertificateModal certificate={revoking} onClose={() => setRevoking(null)} />}
    </Stack>
  );
}
