import { useState } from 'react';
import {
  Alert,
  Button,
  Code,
  Divider,
  FileInput,
  Group,
  List,
  Modal,
  Progress,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { CapStatus, ImportJob } from '@pss/contract';
import { apiRequest, apiUpload, buildPath } from '../../lib/api-client';
import { errorMessage } from '../../lib/api-error';
import { formatDate } from '../../lib/format';

const latestImportKey = ['clients', 'cap-import'] as const;

function isRunning(job: ImportJob | null | undefined): boolean {
  return job?.state === 'NOT_STARTED' || job?.state === 'RUNNING';
}

/**
 * The CAP member roster: upload a CSV (imported in the background, all or nothing, with
 * every rejected row listed), follow its progress, and look up one CAP ID.
 */
export function CapRosterModal(props: { opened: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const latest = useQuery({
    queryKey: latestImportKey,
    queryFn: ({ signal }) => apiRequest<ImportJob | null>('/clients/cap/import', { signal }),
    // Follow a running import; it can be left and come back to.
    refetchInterval: (query) => (isRunning(query.state.data) ? 1000 : false),
  });
  const upload = useMutation({
    mutationFn: (chosen: File) => apiUpload<ImportJob>('/clients/cap/import', chosen),
    onSuccess: (job) => {
      queryClient.setQueryData(latestImportKey, job);
      setFile(null);
    },
  });
  const job = latest.data;

  return (
    <Modal opened={props.opened} onClose={props.onClose} title={t('cap.title')} size="lg" centered>
      <Stack>
        <Text size="sm">
          {t('cap.format')} <Code>cap_id,name,status</Code>
        </Text>
        <Group align="flex-end">
          <FileInput
            label={t('cap.file')}

            accept=".csv,text/csv"
            value={file}
            onChange={setFile}
            style={{ flex: 1 }}
            clearable
          />
          <Button
            onClick={() => file && upload.mutate(file)}
            disabled={!file || isRunning(job)}
            loading={upload.isPending}
          >
            {t('cap.upload')}
          </Button>
        </Group>
        {upload.error && (
          <Alert color="red" role="alert">
            {errorMessage(upload.error, t)}
          </Alert>
        )}
        {job && <ImportJobStatus job={job} />}
        <Divider />
        <CapLookup />
      </Stack>
    </Modal>
  );
}

function ImportJobStatus({ job }: { job: ImportJob }) {
  const { t } = useTranslation();
  const percent = job.total_rows ? Math.round((job.processed_rows / job.total_rows) * 100) : 0;
  return (
    <Stack gap="xs" data-testid="cap-import-status">
      <Text size="sm" fw={500}>
        {t('cap.latest', { file: job.file_name ?? '—', date: formatDate(job.created_at) })}:{' '}
        {t(`cap.state.${job.state}`)}
      </Text>
      {isRunning(job) && (
        <Progress
          value={job.state === 'NOT_STARTED' ? 5 : Math.max(percent, 10)}
          animated
          aria-label={t('cap.progress')}
        />
      )}
      {job.state === 'COMPLETE' && <Alert color="teal">{t('cap.complete', { count: job.total_rows })}</Alert>}
      {job.state === 'ERROR' && (
        <Alert color="red" role="alert" title={t('cap.rejected')}>
          <List size="sm">
            {job.errors.map((error) => (
              <List.Item key={`${error.line}-${error.errorCode}-${error.message}`}>{error.message}</List.Item>
            ))}
          </List>
        </Alert>
      )}
    </Stack>
  );
}

function CapLookup() {
  const { t } = useTranslation();
  const [capId, setCapId] = useState('');
  const lookup = useMutation({
    mutationFn: (id: string) => apiRequest<CapStatus>(buildPath('/clients/cap/{id}/status', { id })),
  });
  return (
    <Stack gap="xs">
      <Group align="flex-end">
        <TextInput
          label={t('cap.lookup')}
          value={capId}
          onChange={(e) => setCapId(e.currentTarget.value)}
          style={{ flex: 1 }}
        />
        <Button
          variant="default"
          onClick={() => capId.trim() && lookup.mutate(capId.trim())}
          loading={lookup.isPending}
        >
          {t('cap.check')}
        </Button>
      </Group>
      {lookup.data && (
        <Text size="sm" data-testid="cap-lookup-result">
          {lookup.data.cap_id}: {lookup.data.name} — {lookup.data.status}
        </Text>
      )}
      {lookup.error && (
        <Text size="sm" c="red" role="alert" data-testid="cap-lookup-error">
          {errorMessage(lookup.error, t)}
        </Text>
      )}
    </Stack>
  );
}
