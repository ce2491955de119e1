import { useEffect, useState } from 'react';
import { Button, Group, Paper, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useTranslation } from '../../lib/i18n';
import type { PostedSeasonSummary } from '@pss/contract';
import { RichTextView } from '../../components/rich-text-view';
import { errorMessage } from '../../lib/api-error';
import { formatBytes, formatDate } from '../../lib/format';
import { toastError } from '../../lib/toasts';
import { downloadSummarySheet, loadSummaryVideo } from './clinician-api';
import '../../lib/i18n/participant';

/**
 * A posted Season Results Summary on the dashboard of a participant who completed its
 * season: title, greeting, description, the sheet to download and the video. An uploaded
 * video is fetched only when asked for (it may be large), then plays from memory.
 */
export function SeasonSummaryCard({ summary }: { summary: PostedSeasonSummary }) {
  const { t } = useTranslation();
  const [downloading, setDownloading] = useState(false);
  const [loadingVideo, setLoadingVideo] = useState(false);
  const [videoSrc, setVideoSrc] = useState<string | null>(null);
  const titleId = `season-summary-${summary.id}`;

  // The object URL holds the video in memory until the card goes.
  useEffect(() => {
    if (!videoSrc) return;
    return () => URL.revokeObjectURL(videoSrc);
  }, [videoSrc]);

  async function download() {
    if (!summary.sheet) return;
    setDownloading(true);
    try {
      await downloadSummarySheet(summary.id, summary.sheet.file_name);
    } catch (error) {
      toastError(errorMessage(error, t));
    } finally {
      setDownloading(false);
    }
  }

  async function play() {
    setLoadingVideo(true);
    try {
      setVideoSrc(await loadSummaryVideo(summary.id));
    } catch (error) {
      toastError(errorMessage(error, t));
    } finally {
      setLoadingVideo(false);
    }
  }

  return (
    <Paper withBorder p="md" component="article" aria-labelledby={titleId} data-testid="season-summary">
      <Stack gap="sm">
        <div>
          <Text size="sm" c="dimmed">
            {t('participantPages.seasonResults', { season: summary.season_name })} ·{' '}
            {t('participantPages.postedOn', { date: formatDate(summary.posted_at) })}
          </Text>
          <Title order={4} id={titleId}>
            {summary.title}
          </Title>
        </div>
        {summary.greeting && (
          <Text fs="italic" style={{ whiteSpace: 'pre-line' }}>
            {summary.greeting}
          </Text>
        )}
        <RichTextView html={summary.description} />
        <Group gap="xs" wrap="wrap">
          {summary.sheet && (
            <Group gap={6} wrap="wrap">
              <Button variant="default" onClick={() => void download()} loading={downloading}>
                {t('participantPages.downloadSheet')}
              </Button>
              <Text size="sm" c="dimmed">
                {formatBytes(summary.sheet.bytes)}
              </Text>
            </Group>
          )}
          {summary.video && !videoSrc && (
            <Button variant="default" onClick={() => void play()} loading={loadingVideo}>
              {t('participantPages.playVideo')}
            </Button>
          )}
          {summary.video_url && (
            <Button component="a" variant="default" href={summary.video_url} target="_blank" rel="noopener noreferrer">
              {t('participantPages.watchVideo')} <VisuallyHidden>{t('participantPages.opensInNewTab')}</VisuallyHidden>
            </Button>
          )}
        </Group>
        {videoSrc && (
          <video
            controls
            autoPlay
            src={videoSrc}
            aria-label={t('participantPages.videoOf', { title: summary.title })}
            style={{ width: '100%', maxHeight: 480, background: '#000' }}
          />
        )}
      </Stack>
    </Paper>
  );
}
