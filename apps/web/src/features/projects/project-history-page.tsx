import { Anchor, Group, Stack, Title } from '@mantine/core';
import { Link, useOutletContext } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import { HistoryPanel } from '../../components/history-panel';
import type { ProjectOutletContext } from './project-layout';

/**
 * A project's History tab: the events about the project itself (its details, seasons, status),
 * and the way to everything that happened in it (its cases, participants, emails) in the log.
 */
export function ProjectHistoryPage() {
  const { t } = useTranslation();
  const { project } = useOutletContext<ProjectOutletContext>();
  return (
    <Stack>
      <Group justify="space-between" align="baseline" wrap="wrap">
        <Title order={3}>{t('audit.history.title')}</Title>
        <Anchor component={Link} to={`/audit-log?project_id=${project.id}`} size="sm">
          {t('audit.history.projectInLog')}
        </Anchor>
      </Group>
      <HistoryPanel
        targetType="project"
        targetId={project.id}
        version={project.updated_at}
        intro={t('audit.history.projectIntro')}
      />
    </Stack>
  );
}
