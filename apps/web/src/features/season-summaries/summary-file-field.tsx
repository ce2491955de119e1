import { useState, type ReactNode } from 'react';
import { Button, FileButton, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from '../../lib/i18n';
import { MAX_SUMMARY_SHEET_BYTES, MAX_SUMMARY_VIDEO_BYTES, type SeasonSummary } from '@pss/contract';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { errorMessage } from '../../lib/api-error';
import { saveErrors } from '../../lib/form-errors';
import { formatBytes } from '../../lib/format';
import { toastError, toastSuccess } from '../../lib/toasts';
import { downloadSummaryFile, useSeasonSummaryFile, type SummaryFileKind } from './season-summaries-api';

const MB = 1024 * 1024;
const kinds = {
  sheet: {
    maxBytes: MAX_SUMMARY_SHEET_BYTES,
    // What the file picker offers; the server reads the content whatever the name.
    accept: '.pdf,.xlsx,application/pdf,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    keys: {
      title: 'seasonSummaries.sheet',
      help: 'seasonSummaries.sheetHelp',
      none: 'seasonSummaries.noSheet',
      upload: 'seasonSummaries.uploadSheet',
      replace: 'seasonSummaries.replaceSheet',
      remove: 'seasonSummaries.removeSheet',
    },
  },
  video: {
    maxBytes: MAX_SUMMARY_VIDEO_BYTES,
    accept: '.mp4,.mov,video/mp4,video/quicktime',
    keys: {
      title: 'seasonSummaries.video',
      help: 'seasonSummaries.videoHelp',
      none: 'seasonSummaries.noVideo',
      upload: 'seasonSummaries.uploadVideo',
      replace: 'seasonSummaries.replaceVideo',
      remove: 'seasonSummaries.removeVideo',
    },
  },
} as const;

/**
 * One of a summary's files — the sheet or the video: what is uploaded (with a download to
 * check it), upload or replace, and remove after asking. `blockedBy` says why no upload is
 * possible now (the summary is not saved yet; a video link is saved instead).
 */
export function SummaryFileField(props: {
  kind: SummaryFileKind;
  projectId: string;
  seasonName: string;
  summary: SeasonSummary | null;
  blockedBy: string | null;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const { kind, summary } = props;
  const { maxBytes, accept, keys } = kinds[kind];
  const write = useSeasonSummaryFile(props.projectId, props.seasonName, kind);
  const [removing, setRemoving] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const [uploading, setUploading] = useState<string | null>(null);
  const file = summary?.[kind] ?? null;
  const titleId = `summary-${kind}-title`;

  async function upload(chosen: File | null) {
    if (!chosen || !summary) return;
    if (chosen.size > maxBytes) return toastError(t('seasonSummaries.tooLarge', { max: maxBytes / MB }));
    setUploading(chosen.name);
    try {
      const saved = await write.mutateAsync({ id: summary.id, file: chosen });
      toastSuccess(t('seasonSummaries.uploaded', { name: saved[kind]?.file_name ?? chosen.name }));
    } catch (error) {
      // A refused file names why beside `body.file` ("The sheet must be a PDF or XLSX file.").
      const { fields, form } = saveErrors(error, t);
      toastError(fields.file ?? form ?? errorMessage(error, t));
    } finally {
      setUploading(null);
    }
  }

  async function remove() {
    if (!summary || !file) return;
    try {
      await write.mutateAsync({ id: summary.id, file: null });
      toastSuccess(t('seasonSummaries.removed', { name: file.file_name }));
    } catch (error) {
      toastError(errorMessage(error, t));
    }
    setRemoving(false);
  }

  async function download() {
    if (!summary || !file) return;
    setDownloading(true);
    try {
      await downloadSummaryFile(summary.id, kind, file.file_name);
    } catch (error) {
      toastError(errorMessage(error, t));
    } finally {
      setDownloading(false);
    }
  }

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby={titleId}>
      <Stack>
        <Title order={4} id={titleId}>
          {t(keys.title)}
        </Title>
        <Text size="sm">{t(keys.help, { max: maxBytes / MB })}</Text>
        {file ? (
          <Group gap="sm" wrap="wrap" data-testid={`summary-${kind}`}>
            <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
              {file.file_name}
            </Text>
            <Text size="sm" c="dimmed">
              {formatBytes(file.bytes)}
            </Text>
            <Button variant="subtle" size="xs" onClick={() => void download()} loading={downloading}>
              {t('seasonSummaries.download', { name: file.file_name })}
            </Button>
          </Group>
        ) : (
          <Text size="sm" c="dimmed" data-testid={`summary-${kind}`}>
            {t(keys.none)}
          </Text>
        )}
        <Group gap="xs" wrap="wrap">
          <FileButton onChange={(chosen) => void upload(chosen)} accept={accept} disabled={Boolean(props.blockedBy)}>
            {(buttonProps) => (
              <Button
                {...buttonProps}
                variant="default"
                loading={uploading !== null}
                disabled={Boolean(props.blockedBy)}
                aria-describedby={props.blockedBy ? `${titleId}-blocked` : undefined}
              >
                {file ? t(keys.replace) : t(keys.upload)}
              </Button>
            )}
          </FileButton>
          {file && (
            <Button variant="subtle" color="red" onClick={() => setRemoving(true)}>
              {t(keys.remove)}
            </Button>
          )}
        </Group>
        {uploading && (
          <Text size="sm" role="status">
            {t('seasonSummaries.uploading', { name: uploading })}
          </Text>
        )}
        {props.blockedBy && (
          <Text size="sm" c="dimmed" id={`${titleId}-blocked`}>
            {props.blockedBy}
          </Text>
        )}
        {props.children}
      </Stack>
      <ConfirmDialog
        opened={removing}
        title={t('seasonSummaries.removeFileTitle', { name: file?.file_name ?? '' })}
        message={t('seasonSummaries.removeFileMessage')}
        confirmLabel={t(keys.remove)}
        busy={write.isPending}
        onConfirm={() => void remove()}
        onClose={() => setRemoving(false)}
      />
    </Paper>
  );
}
