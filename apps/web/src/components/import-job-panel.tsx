import { useState, type ReactNode } from 'react';
import { Alert, Button, FileInput, Group, List, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from '../lib/i18n';
import { errorMessage } from '../lib/api-error';
import { formatDate } from '../lib/format';
import { importProgress, useImportJob, type ImportJobSource } from '../lib/use-import-job';

/**
 * The one upload-and-follow panel of every background import (the CAP roster,
 * participants, key takeaways, answer tags, and what comes later): choose a CSV, upload
 * it, follow its progress, then read that it was imported or every row that was
 * rejected. Nothing is written unless every row is right, and the texts say so.
 */
export function ImportJobPanel(props: {
  source: ImportJobSource;
  /** What the file holds: its columns, an example to download. */
  format: ReactNode;
  fileLabel: string;
  uploadLabel?: string;
  /** Said after the count when an import is complete (what changed elsewhere). */
  completeHint?: string;
  testId: string;
}) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const { job, running, upload } = useImportJob(props.source);
  return (
    <Stack gap="xs">
      <Text size="sm">{props.format}</Text>
      <Group align="flex-end">
        <FileInput
          label={props.fileLabel}
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
          {props.uploadLabel ?? t('imports.upload')}
        </Button>
      </Group>
      {upload.error && (
        <Alert color="red" role="alert">
          {errorMessage(upload.error, t)}
        </Alert>
      )}
      {job && (
        <Stack gap="xs" data-testid={props.testId}>
          <Text size="sm" fw={500}>
            {t('imports.latest', { file: job.file_name ?? '—', date: formatDate(job.created_at) })}:{' '}
            {t(`imports.state.${job.state}`)}
          </Text>
          {running && <Progress value={importProgress(job)} animated aria-label={t('imports.progress')} />}
          {job.state === 'COMPLETE' && (
            <Alert color="teal">
              {t('imports.complete', { count: job.total_rows })}
              {props.completeHint ? ` ${props.completeHint}` : ''}
            </Alert>
          )}
          {job.state === 'ERROR' && (
            <Alert color="red" role="alert" title={t('imports.rejected')}>
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
  );
}
