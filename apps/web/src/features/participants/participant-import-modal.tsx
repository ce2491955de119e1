import { useEffect, useRef, useState } from 'react';
import { Alert, Anchor, Button, Code, FileInput, Group, List, Modal, Progress, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/api-error';
import { downloadFromApi } from '../../lib/download';
import { isImportRunning, latestImportQueryOptions, participantKeys, useUploadParticipants } from './participants-api';

/** Upload a participant CSV and follow its import: progress, then done or every rejected row. */
export function ParticipantImportModal(props: { projectId: string; opened: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const latest = useQuery(latestImportQueryOptions(props.projectId));
  const upload = useUploadParticipants(props.projectId);
  const job = latest.data;
  const running = isImportRunning(job);

  // When an import finishes, the list shows its participants.
  const wasRunning = useRef(running);
  useEffect(() => {
    if (wasRunning.current && !running) void queryClient.invalidateQueries({ queryKey: participantKeys.all });
    wasRunning.current = running;
  }, [running, queryClient]);

  const percent = job && job.total_rows > 0 ? Math.round((job.processed_rows / job.total_rows) * 100) : 0;
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={t('participants.importTitle')} size="lg" centered>
      <Stack>
        <Text size="sm">
          {t('participants.importFormat')}{' '}
          <Code>user_id, salutation, first_name, last_name, email, role, profession</Code>{' '}
          {t('participants.importAssignment')} <Code>season, rounds, start_date</Code>.{' '}
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={() => void downloadFromApi('/users/import/example', {}, 'participants-example.csv')}
          >
            {t('participants.example')}
          </Anchor>
        </Text>
        <Group align="flex-end">
          <FileInput
            label={t('participants.file')}

            accept=".csv,text/csv"
            value={file}
            onChange={setFile}
            style={{ flex: 1 }}
            clearable
          />
          <Button
            onClick={() => file && upload.mutate(file, { onSuccess: () => setFile(null) })}
            disabled={!file || running}
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
        {job && (
          <Stack gap="xs" data-testid="participant-import-status">
            <Text size="sm" fw={500}>
              {t('participants.latestImport', { file: job.file_name ?? '—' })}: {t(`cap.state.${job.state}`)}
            </Text>
            {running && (
              <Progress
                value={job.state === 'NOT_STARTED' ? 2 : Math.max(percent, 5)}
                animated
                aria-label={t('cap.progress')}
              />
            )}
            {job.state === 'COMPLETE' && (
              <Alert color="teal">{t('participants.importComplete', { count: job.total_rows })}</Alert>
            )}
            {job.state === 'ERROR' && (
              <Alert color="red" title={t('cap.rejected')}>
                <List size="sm" data-testid="import-errors">
                  {job.errors.map((error) => (
                    <List.Item key={`${error.line}-${error.errorCode}-${error.message}`}>{error.message}</List.Item>
                  ))}
                </List>
              </Alert>
            )}
          </Stack>
        )}
      </Stack>
    </Modal>
  );
}
