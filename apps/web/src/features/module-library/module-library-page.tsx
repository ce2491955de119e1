import { useState } from 'react';
import { Anchor, Button, Group, Stack, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import { moduleSortFields, type ModuleSummary } from '@pss/contract';
import { DataTable, type Column } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { formatDate } from '../../lib/format';
import { useListState } from '../../lib/use-list-state';
import { useListTable } from '../../lib/use-list-table';
import { ModuleFormModal } from './module-form-modal';
import { moduleListQueryOptions } from './module-library-api';

/** The provider's module libraries of reusable cases. */
export function ModuleLibraryPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useListState({ sortable: moduleSortFields });
  const modules = useQuery(moduleListQueryOptions(list.query));
  const { table, search } = useListTable(list, modules, {
    empty: { none: t('modules.empty'), noMatches: t('modules.noMatches') },
  });
  const [creating, setCreating] = useState(false);
  const columns: Column<ModuleSummary>[] = [
    {
      key: 'name',
      header: t('modules.name'),
      sortField: 'name',
      render: (m) => (
        <Anchor component={Link} to={`/module-library/${m.id}/cases`}>
          {m.name}
        </Anchor>
      ),
    },
    { key: 'description', header: t('modules.description'), render: (m) => m.description || '—' },
    { key: 'cases', header: t('modules.cases'), sortField: 'case_count', render: (m) => m.case_count },
    {
      key: 'updated',
      header: t('modules.updatedAt'),
      sortField: 'updated_at',
      render: (m) => formatDate(m.updated_at),
    },
  ];
  return (
    <Stack>
      <PageHeader
        title={t('modules.title')}
        action={<Button onClick={() => setCreating(true)}>{t('modules.new')}</Button>}
      />
      <Group>
        <TextInput {...search} placeholder={t('modules.searchPlaceholder')} w={280} />
      </Group>
      <DataTable caption={t('modules.title')} columns={columns} getRowId={(m) => m.id} {...table} />
      {creating && (
        <ModuleFormModal
          onClose={(saved) => {
            setCreating(false);
            if (saved) navigate(`/module-library/${saved.id}/cases`);
          }}
        />
      )}
    </Stack>
  );
}
