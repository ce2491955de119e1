import { useState } from 'react';
import { Anchor, Button, Group, SegmentedControl, Stack, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import { DataStatusBadge } from './data-status-badge';
import { StatusBadge } from '../../components/status-badge';
import { projectSortFields, type ProjectSummary } from '@pss/contract';
import { DataTable, type Column } from '../../components/data-table';
import { formatDate } from '../../lib/format';
import { useListState } from '../../lib/use-list-state';
import { useListTable } from '../../lib/use-list-table';
import { useUrlParam } from '../../lib/use-url-param';
import { ProjectFormModal } from './project-form-modal';
import { clientProjectsQueryOptions } from './projects-api';

type StatusFilter = 'all' | 'ACTIVE' | 'ARCHIVED';

/** Client Options: the client's projects, searched, sorted and paged, with "New project". */
export function ClientProjectsSection({ clientId }: { clientId: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useListState({ sortable: projectSortFields });
  const [statusParam, setStatus] = useUrlParam('status');
  const status = (statusParam ?? 'all') as StatusFilter;
  const [creating, setCreating] = useState(false);
  const filter = status === 'all' ? undefined : JSON.stringify({ status });
  const projects = useQuery(clientProjectsQueryOptions(clientId, { ...list.query, filter }));
  const { table, search } = useListTable(list, projects, {
    empty: { none: t('projects.empty'), noMatches: t('projects.noMatches') },
    filtered: status !== 'all',
  });
  const base = `/project-management/clients/${clientId}/projects`;

  const columns: Column<ProjectSummary>[] = [
    {
      key: 'name',
      header: t('projects.name'),
      sortField: 'name',
      render: (p) => (
        <Anchor component={Link} to={`${base}/${p.id}`}>
          {p.name}
        </Anchor>
      ),
    },
    {
      key: 'status',
      header: t('projects.status'),
      sortField: 'status',
      render: (p) => (
        <StatusBadge color={p.status === 'ACTIVE' ? 'teal' : 'gray'}>
          {t(`projects.statusValue.${p.status}`)}
        </StatusBadge>
      ),
    },
    { key: 'seasons', header: t('projects.seasons'), render: (p) => p.season_count },
    {
      key: 'data_status',
      header: t('projects.dataStatusHeader'),
      render: (p) => <DataStatusBadge status={p.data_status} />,
    },
    {
      key: 'updated_at',
      header: t('projects.updatedAt'),
      sortField: 'updated_at',
      render: (p) => formatDate(p.updated_at),
    },
    {
      key: 'created_at',
      header: t('projects.createdAt'),
      sortField: 'created_at',
      render: (p) => formatDate(p.created_at),
    },
  ];

  return (
    <Stack mt="xl">
      <Group justify="space-between">
        <Title order={3}>{t('projects.title')}</Title>
        <Button onClick={() => setCreating(true)}>{t('projects.new')}</Button>
      </Group>
      <Group align="flex-end">
        <TextInput {...search} placeholder={t('projects.searchPlaceholder')} w={320} />
        <SegmentedControl
          aria-label={t('projects.status')}
          value={status}
          onChange={(value) => setStatus(value === 'all' ? null : value)}
          data={[
            { value: 'all', label: t('common.all') },
            { value: 'ACTIVE', label: t('projects.statusValue.ACTIVE') },
            { value: 'ARCHIVED', label: t('projects.statusValue.ARCHIVED') },
          ]}
        />
      </Group>
      <DataTable caption={t('projects.title')} columns={columns} getRowId={(p) => p.id} {...table} />
      {creating && (
        <ProjectFormModal
          opened
          clientId={clientId}
          onClose={() => setCreating(false)}
          onSaved={(project) => navigate(`${base}/${project.id}`)}
        />
      )}
    </Stack>
  );
}
