import { Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useOutletContext } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import { StatusBadge } from '../../components/status-badge';
import { DataStatusBadge } from './data-status-badge';
import { formatDate } from '../../lib/format';
import type { ProjectOutletContext } from './project-layout';

/** What a project is: its catalogues, notes and the dates of every round. */
export function ProjectOverview() {
  const { t } = useTranslation();
  const { project } = useOutletContext<ProjectOutletContext>();
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder radius="md">
          <Text fw={600} mb="xs">
            {t('projects.diseaseTypes')}
          </Text>
          <Group gap="xs">
            {project.disease_types.map((d) => (
              <StatusBadge key={d.id}>{d.name}</StatusBadge>
            ))}
          </Group>
          <Text fw={600} mt="md" mb="xs">
            {t('projects.questionCategories')}
          </Text>
          <Group gap="xs">
            {project.question_categories.map((c) => (
              <StatusBadge key={c.id} color="grape">
                {c.name}
              </StatusBadge>
            ))}
          </Group>
        </Card>
        <Card withBorder radius="md">
          <Group justify="space-between" mb="xs">
            <Text fw={600}>{t('projects.participantData')}</Text>
            <DataStatusBadge status={project.data_status} />
          </Group>
          <Text size="sm" data-testid="participant-counts">
            {t('projects.participantCounts', {
              active: project.participant_counts.active,
              archived: project.participant_counts.archived,
              notReady: project.participant_counts.not_ready,
            })}
          </Text>
          <Text fw={600} mt="md" mb="xs">
            {t('projects.notes')}
          </Text>
          <Text c={project.notes ? undefined : 'dimmed'} style={{ whiteSpace: 'pre-wrap' }}>
            {project.notes || t('projects.noNotes')}
          </Text>
        </Card>
      </SimpleGrid>
      <Title order={3} size="h4">
        {t('projects.seasons')}
      </Title>
      {project.seasons.length === 0 && <Text c="dimmed">{t('projects.noSeasons')}</Text>}
      {project.seasons.map((season) => (
        <Card key={season.id} withBorder radius="md">
          <Text fw={600} mb="xs">
            {season.name}
          </Text>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('projects.round')}</Table.Th>
                <Table.Th>{t('projects.startDate')}</Table.Th>
                <Table.Th>{t('projects.endDate')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {season.rounds.map((round) => (
                <Table.Tr key={round.id}>
                  <Table.Td>{t('projects.roundN', { n: round.number })}</Table.Td>
                  <Table.Td>{formatDate(`${round.start_date}T12:00:00Z`)}</Table.Td>
                  <Table.Td>{formatDate(`${round.end_date}T12:00:00Z`)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
      ))}
    </Stack>
  );
}
