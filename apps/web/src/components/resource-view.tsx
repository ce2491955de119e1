import { lazy, Suspense } from 'react';
import { Anchor, Badge, Button, Group, Image, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from '../lib/i18n';
import type { ResourceFile, ResourceSourceTypeValue, SignedLink, ThumbnailLink } from '@pss/contract';
import { formatBytes } from '../lib/format';

const PdfViewer = lazy(async () => ({ default: (await import('./pdf-viewer')).PdfViewer }));

/** A video's length as `m:ss` (or `h:mm:ss`). */
export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}

/** What a resource is, as a badge: its kind, and for a video its length. */
export function ResourceKind(props: { type: ResourceSourceTypeValue; file?: ResourceFile | null }) {
  const { t } = useTranslation();
  const duration = props.file?.duration_seconds;
  return (
    <Badge variant="light" color="gray">
      {props.type === 'VIDEO' && duration
        ? t('common.resourceView.videoLength', { length: formatDuration(duration) })
        : t(`common.resourceView.types.${props.type}`)}
    </Badge>
  );
}

/** A resource's thumbnail, or what stands in for it. */
export function ResourceThumbnail(props: {
  name: string;
  type: ResourceSourceTypeValue;
  thumbnail: ThumbnailLink | null | undefined;
  size?: number;
}) {
  const { t } = useTranslation();
  const size = props.size ?? 64;
  if (props.thumbnail?.url) {
    return (
      <Image
        src={props.thumbnail.url}
        alt={t('common.resourceView.thumbnailAlt', { name: props.name })}
        w={size}
        h={size}
        fit="contain"
        radius="sm"
        bg="gray.1"
      />
    );
  }
  const label =
    props.thumbnail?.thumbnail_status === 'PENDING'
      ? t('common.resourceView.thumbnailPending')
      : t(`common.resourceView.types.${props.type}`);
  return (
    <Paper w={size} h={size} bg="gray.1" radius="sm" style={{ display: 'grid', placeItems: 'center' }}>
      <Text size="xs" c="dimmed" ta="center" px={4}>
        {label}
      </Text>
    </Paper>
  );
}

/**
 * A resource shown whole: a PDF in the viewer, an image, a video in a player, a link to
 * open, a text to read. Files come from signed links (they expire; the caller asks again).
 */
export function ResourceView(props: {
  name: string;
  type: ResourceSourceTypeValue;
  details: string;
  link: string | null;
  file: ResourceFile | null;
  view: SignedLink | null;
  download: SignedLink | null;
  headingOrder?: 3 | 4 | 5;
  pdfHeight?: number;
}) {
  const { t } = useTranslation();
  const { file, view } = props;
  return (
    <Stack gap="sm" data-testid="resource-view">
      <Group gap="xs" wrap="wrap">
        <Title order={props.headingOrder ?? 4}>{props.name}</Title>
        <ResourceKind type={props.type} file={file} />
        {file && (
          <Text size="sm" c="dimmed">
            {formatBytes(file.bytes)}
          </Text>
        )}
      </Group>
      {props.type !== 'TEXT' && props.details && (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {props.details}
        </Text>
      )}
      {props.type === 'PDF' && view && (
        <Suspense fallback={<Skeleton h={props.pdfHeight ?? 600} />}>
          <PdfViewer url={view.url} name={props.name} height={props.pdfHeight} />
        </Suspense>
      )}
      {props.type === 'IMAGE' && view && (
        <Image src={view.url} alt={props.name} fit="contain" mah={600} radius="sm" data-testid="resource-image" />
      )}
      {props.type === 'VIDEO' && view && (
        <video
          controls
          preload="metadata"
          src={view.url}
          style={{ maxWidth: '100%', maxHeight: 480 }}
          data-testid="resource-video"
        >
          <track kind="captions" />
        </video>
      )}
      {props.type === 'URL' && props.link && (
        <Anchor href={props.link} target="_blank" rel="noopener noreferrer" style={{ overflowWrap: 'anywhere' }}>
          {t('common.resourceView.openLink', { link: props.link })}
        </Anchor>
      )}
      {props.type === 'TEXT' && (
        <Paper withBorder p="md">
          <Text style={{ whiteSpace: 'pre-wrap' }}>{props.details}</Text>
        </Paper>
      )}
      {props.download && file && (
        <Group>
          <Button component="a" href={props.download.url} variant="default" size="xs" download={file.file_name}>
            {t('common.resourceView.download', { name: file.file_name })}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
