import { useState } from 'react';
import { Anchor, Badge, Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import {
  clientRoutes,
  resourceAttachmentStatuses,
  resourceSortFields,
  resourceSourceTypes,
  type Resource,
  type ResourceFilter,
} from '@pss/contract';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable, type Column } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { ResourceKind } from '../../components/resource-view';
import { call } from '../../lib/api-client';
import { errorMessage } from '../../lib/api-error';
import { formatDate } from '../../lib/format';
import { emptySelection, selectedCount, toSelectionBody, type SelectionState } from '../../lib/selection';
import { toastError, toastSuccess } from '../../lib/toasts';
import { useListState } from '../../lib/use-list-state';
import { useListTable } from '../../lib/use-list-table';
import { useUrlParam } from '../../lib/use-url-param';
import { ResourceThumbnailCell } from './resource-thumbnail-cell';
import { categoriesQueryOptions, exportResources, resourceListQueryOptions, useDeleteResources } from './resources-api';

/** The Resource Library: search, filters, select-all with exceptions, bulk delete, export. */
export function ResourceLibraryPage() {
  const { t } = useTranslation();
  const list = useListState({ sortable: resourceSortFields });
  const [type, setType] = useUrlParam('type');
  const [category, setCategory] = useUrlParam('category');
  const [client, setClient] = useUrlParam('client');
  const [attachment, setAttachment] = useUrlParam('attachment');
  const filter: ResourceFilter = {
    ...(type ? { source_type: [type as Resource['source_type']] } : {}),
    ...(category ? { category_id: category } : {}),
    ...(client ? { client_id: client } : {}),
    ...(attachment ? { attachment_status: attachment as Resource['attachment_status'] } : {}),
  };
  const resources = useQuery(resourceListQueryOptions({ ...list.query, filter }));
  const categories = useQuery(categoriesQueryOptions());
  const clients = useQuery({
    queryKey: ['resources', 'client-options'],
    queryFn: ({ signal }) => call(clientRoutes.list, { query: { limit: 200, sort: 'name:ASC' } }, { signal }),
  });
  const [selection, setSelection] = useState<SelectionState>(emptySelection);
  const { table, search } = useListTable(list, resources, {
    // Spans: the table says its empty state in a paragraph of its own (no <p> inside a <p>).
    empty: {
      none: (
        <Text span size="sm">
          {t('resources.empty')}
        </Text>
      ),
      noMatches: (
        <Text span size="sm">
          {t('resources.noMatches')}
        </Text>
      ),
    },
    filtered: Object.keys(filter).length > 0,
    onSearchInput: () => setSelection(emptySelection),
  });
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteResources();
  const total = resources.data?.total ?? 0;
  const count = selectedCount(selection, total);

  const changeFilter = (set: (value: string | null) => void) => (value: string | null) => {
    setSelection(emptySelection);
    list.setPage(1);
    set(value);
  };

  async function deleteSelected() {
    const body = toSelectionBody(selection, { search: list.search || undefined, filter });
    if (!body) return;
    try {
      const deleted = await remove.mutateAsync(body as Parameters<typeof remove.mutateAsync>[0]);
      toastSuccess(t('resources.deleted', { count: deleted.ids.length }));
      setSelection(emptySelection);
    } catch (error) {
      toastError(errorMessage(error, t));
    }
    setConfirming(false);
  }

  const columns: Column<Resource>[] = [
    {
      key: 'thumbnail',
      header: t('resources.thumbnail'),
      render: (r) => <ResourceThumbnailCell resource={r} size={48} />,
    },
    {
      key: 'name',
      header: t('resources.name'),
      sortField: 'name',
      render: (r) => (
        <Anchor component={Link} to={`/resource-library/${r.id}`}>
          {r.name}
        </Anchor>
      ),
    },
    {
      key: 'type',
      header: t('resources.type'),
      sortField: 'source_type',
      render: (r) => <ResourceKind type={r.source_type} file={r.file} />,
    },
    {
      key: 'categories',
      header: t('resources.categories'),
      render: (r) => r.categories.map((c) => c.name).join(', ') || '—',
    },
    {
      key: 'attachment',
      header: t('resources.attachment'),
      render: (r) => (
        <Badge
          variant="light"
          color={
            r.attachment_status === 'NOT_ATTACHED'
              ? 'gray'
              : r.attachment_status === 'ATTACHED_ACTIVE'
                ? 'green'
                : 'blue'
          }
          data-testid={`attachment-${r.id}`}
        >
          {t(`resources.status.${r.attachment_status}`)}
          {r.attached_case_count > 0 && ` · ${t('resources.attachedCount', { count: r.attached_case_count })}`}
        </Badge>
      ),
    },
    {
      key: 'updated',
      header: t('resources.updatedAt'),
      sortField: 'updated_at',
      render: (r) => formatDate(r.updated_at),
    },
  ];

  const exportParams = { search: list.search || undefined, sort: list.query.sort, filter };
  return (
    <Stack>
      <PageHeader
        title={t('resources.title')}
        action={
          <Button component={Link} to="/resource-library/new">
            {t('resources.new')}
          </Button>
        }
      />
      <Group align="flex-end" wrap="wrap">
        <TextInput {...search} placeholder={t('resources.searchPlaceholder')} w={240} />
        <Select
          label={t('resources.type')}
          placeholder={t('resources.allTypes')}
          data={resourceSourceTypes.map((value) => ({ value, label: t(`common.resourceView.types.${value}`) }))}
          value={type}
          onChange={changeFilter(setType)}
          clearable
          w={150}
        />
        <Select
          label={t('resources.categories')}
          placeholder={t('resources.anyCategory')}
          data={(categories.data?.items ?? []).map((c) => ({ value: c.id, label: c.name }))}
          value={category}
          onChange={changeFilter(setCategory)}
          clearable
          searchable
          w={180}
        />
        <Select
          label={t('resources.client')}
          placeholder={t('resources.anyClient')}
          data={(clients.data?.items ?? []).map((c) => ({ value: c.id, label: c.name }))}
          value={client}
          onChange={changeFilter(setClient)}
          clearable
          searchable
          w={180}
        />
        <Select
          label={t('resources.attachment')}
          placeholder={t('resources.anyAttachment')}
          data={resourceAttachmentStatuses.map((value) => ({ value, label: t(`resources.status.${value}`) }))}
          value={attachment}
          onChange={changeFilter(setAttachment)}
          clearable
          w={220}
        />
      </Group>
      <Group gap="xs">
        <Button color="red" variant="light" disabled={count === 0} onClick={() => setConfirming(true)}>
          {t('resources.deleteSelected', { count })}
        </Button>
        <Button
          variant="default"
          onClick={() => void exportResources(exportParams, 'csv').catch((e) => toastError(errorMessage(e, t)))}
        >
          {t('resources.exportCsv')}
        </Button>
        <Button
          variant="default"
          onClick={() => void exportResources(exportParams, 'xlsx').catch((e) => toastError(errorMessage(e, t)))}
        >
          {t('resources.exportXlsx')}
        </Button>
      </Group>
      <DataTable
        caption={t('resources.title')}
        columns={columns}
        getRowId={(r) => r.id}
        {...table}
        selection={selection}
        onSelectionChange={setSelection}
      />
      <ConfirmDialog
        opened={confirming}
        title={t('resources.deleteTitle', { count })}
        message={t('resources.deleteMessage')}
        confirmLabel={t('resources.delete')}
        busy={remove.isPending}
        onConfirm={() => void deleteSelected()}
        onClose={() => setConfirming(false)}
      />
    </Stack>
  );
}
