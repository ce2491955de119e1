import { Anchor, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useParams } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import { associatedProjectSortFields, moduleLibraryRoutes } from '@pss/contract';
import { DataTable, type Column } from '../../components/data-table';
import { call } from '../../lib/api-client';
import { useListState } from '../../lib/use-list-state';
import { useListTable } from '../../lib/use-list-table';

type Row = { id: string; name: string; client_id: string; client_name: string; copied_cases: number };

/** The projects holding copies of this module library's cases. */
export function AssociatedProjectsPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const list = useListState({ sortable: associatedProjectSortFields });
  const projects = useQuery({
    queryKey: ['module-library', 'associated-projects', id, list.query],
    queryFn: ({ signal }) =>
      call(moduleLibraryRoutes.associatedProjects, { params: { id }, query: list.query }, { signal }),
    placeholderData: keepPreviousData,
  });
  const { table } = useListTable(list, projects, { empty: t('modules.noProjects') });
  const columns: Column<Row>[] = [
    {
      key: 'name',
      header: t('modules.project'),
      sortField: 'name',
      render: (p) => (
        <Anchor component={Link} to={`/project-management/clients/${p.client_id}/projects/${p.id}/cases`}>
          {p.name}
        </Anchor>
      ),
    },
    { key: 'client', header: t('modules.client'), sortField: 'client_name', render: (p) => p.client_name },
    { key: 'copies', header: t('modules.copiedCases'), render: (p) => p.copied_cases },
  ];
  return (
    <Stack>
      <Title order={3}>{t('modules.sections.projects')}</Title>
      <Text size="sm" c="dimmed">
        {t('modules.projectsHelp')}
      </Text>
      <DataTable caption={t('modules.sections.projects')} columns={columns} getRowId={(p) => p.id} {...table} />
    </Stack>
  );
}
