import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Code, FileInput, Group, List, Progress, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/api-error';
import { elementKeys, isRunning, latestJobQueryOptions, useUploadElements, type ElementsKind } from './elements-api';

/** Uploads one kind of elements file and follows its import: progress, then done or the rejected rows. */
export function ElementsUpload(props: { apiPath: string; kind: ElementsKind; columns: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const job = useQuery(latestJobQueryOptions(props.apiPath, props.kind)).data;
  const upload = useUploadElements(props.apiPath, props.kind);
  const running = isRunning(job);
  const label = t(`elements.kinds.${props.kind}`);

  // When an import finishes, the lists show what it wrote.
  const wasRunning = useRef(running);
  useEffect(() => {
    if (wasRunning.current && !running) void queryClient.invalidateQueries({ queryKey: elementKeys.all });
    wasRunning.current = running;
  }, [running, queryClient]);

  return (
    <Stack gap="xs">
      <Text size="sm">
        {t('elements.format')} <Code>{props.columns}</Code>
      </Text>
      <Group align="flex-end">
        <FileInput
          label={t('elements.file', { kind: label })}
          accept=".csv,text/csv"
          value={file}
          onChange={setFile}
          clearable
          style={{ flex: 1 }}
        />
        <Button
          onClick={() => file && upload.mutate(file, { onSuccess: () => setFile(null) })}
          disabled={!file || running}
          loading={upload.isPending}
        >
          {t('elements.upload', { kind: label })}
        </Button>
      </Group>
      {upload.error && (
        <Alert color="red" role="alert">
          {errorMessage(upload.error, t)}
        </Alert>
      )}
      {job && (
        <Stack gap={4} data-testid={`elements-import-${props.kind}`}>
          <Text size="sm">
            {t('elements.latestImport', { file: job.file_name ?? '—' })}: {t(`cap.state.${job.state}`)}
          </Text>
          {running && <Progress value={job.state === 'NOT_STARTED' ? 2 : 50} animated aria-label={t('cap.progress')} />}
          {job.state === 'COMPLETE' && (
            <Alert color="teal">{t('elements.importComplete', { count: job.total_rows })}</Alert>
          )}
          {job.state === 'ERROR' && (
            <Alert color="red" title={t('elements.importRejected')}>
              <List size="sm">
                {job.errors.map((e) => (
                  <List.Item key={`${e.line}:${e.message}`}>{e.message}</List.Item>
                ))}
              </List>
            </Alert>
          )}
        </Stack>
      )}
    </Stack>
  );
}
