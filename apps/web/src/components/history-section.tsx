import { lazy, Suspense, useState } from 'react';
import { Button, Group, Paper, Skeleton, Title } from '@mantine/core';
import { useTranslation } from '../lib/i18n';
import type { HistoryPanelProps } from './history-panel';

/** The panel's code (and its read) come when it is opened, not with the screen it sits on. */
const HistoryPanel = lazy(async () => ({ default: (await import('./history-panel')).HistoryPanel }));

/**
 * A record's History as a section of its screen (a case's editor, a user's page): closed until
 * asked for, so the screen's first download and reads are what they were.
 */
export function HistorySection(props: HistoryPanelProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const headingId = `history-${props.targetType}-${props.targetId}`;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId}>
      <Group justify="space-between" mb={open ? 'sm' : 0}>
        <Title order={3} size="h4" id={headingId}>
          {t('audit.history.title')}
        </Title>
        {!open && (
          <Button variant="default" size="xs" onClick={() => setOpen(true)}>
            {t('audit.history.show')}
          </Button>
        )}
      </Group>
      {open && (
        <Suspense fallback={<Skeleton h={120} />}>
          <HistoryPanel {...props} />
        </Suspense>
      )}
    </Paper>
  );
}
