import { useState } from 'react';
import { Anchor, Button, Group, Stack, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '../../lib/router';
import { useTranslation } from '../../lib/i18n';
import { moduleSortFields, type ModuleSummary } from '@pss/contract';
import { DataTable, type Column } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { errorMessage } from '../../lib/api-error';
import { formatDate } from '../../lib/format';
import { useListState } from '../../lib/use-list-state';
import { ModuleFormModal } from './module-form-modal';
import { moduleListQueryOptions } from './module-library-api';

/** The provider's module libraries of reusable cases. */
export function ModuleLibraryPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useListState({ sortable: moduleSortFields });
  const modules = useQuery(moduleListQueryOptions(list.query));
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
        <TextInput
          label={t('table.search')}
          placeholder={t('modules.searchPlaceholder')}
          value={list.searchInput}
          onChange={(e) => list.setSearchInput(e.currentTarget.value)}
          type="search"
          w={280}
        />
      </Group>
      <DataTable
        caption={t('modules.title')}
        columns={columns}
        rows={modules.data?.items}
        total={modules.data?.total ?? 0}
        page={list.page}
        limit={list.query.limit}
        getRowId={(m) => m.id}
        onPageChange={list.setPage}
        sort={list.sort}
        onToggleSort={list.toggleSort}
        loading={modules.isFetching}
        error={modules.error ? errorMessage(modules.error, t) : null}
        onRetry={() => void modules.refetch()}
        empty={list.search ? t('modules.noMatches') : t('modules.empty')}
      />
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
