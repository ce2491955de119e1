import { useState } from 'react';
import { Anchor, Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import {
  createSurveyTemplateBody,
  surveyTemplateSortFields,
  surveyTemplateTypes,
  type SurveyTemplateSummary,
  type SurveyTemplateTypeValue,
} from '@pss/contract';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable, type Column } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { errorMessage } from '../../lib/api-error';
import { contractResolver } from '../../lib/form-errors';
import { formatDate } from '../../lib/format';
import { emptySelection, selectedCount, toSelectionBody, type SelectionState } from '../../lib/selection';
import { toastError, toastSuccess } from '../../lib/toasts';
import { useListState } from '../../lib/use-list-state';
import { useListTable } from '../../lib/use-list-table';
import { surveyListQueryOptions, useDeleteSurveys, useDuplicateSurvey } from './surveys-api';
import { SurveyTemplateFilterFields, useSurveyTemplateFilters } from './survey-template-filters';

/**
 * `/survey-templates`: the provider's survey templates, searched, filtered by type, client and
 * project, duplicated, deleted by selection.
 */
export function SurveyTemplatesPage() {
  const { t } = useTranslation();
  const list = useListState({ sortable: surveyTemplateSortFields });
  const filters = useSurveyTemplateFilters();
  const { filter } = filters;
  const templates = useQuery(surveyListQueryOptions({ ...list.query, filter }));
  const [selection, setSelection] = useState<SelectionState>(emptySelection);
  const { table, search } = useListTable(list, templates, {
    empty: { none: t('surveys.empty'), noMatches: t('surveys.noMatches') },
    filtered: Object.keys(filter).length > 0,
    onSearchInput: () => setSelection(emptySelection),
  });
  const [creating, setCreating] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteSurveys();
  const duplicate = useDuplicateSurvey();
  const total = templates.data?.total ?? 0;
  const count = selectedCount(selection, total);

  const columns: Column<SurveyTemplateSummary>[] = [
    {
      key: 'name',
      header: t('surveys.name'),
      sortField: 'name',
      render: (s) => (
        <Anchor component={Link} to={`/survey-templates/${s.id}`}>
          {s.name}
        </Anchor>
      ),
    },
    { key: 'type', header: t('surveys.type'), sortField: 'type', render: (s) => t(`surveys.types.${s.type}`) },
    { key: 'pages', header: t('surveys.pages'), render: (s) => s.page_count },
    { key: 'questions', header: t('surveys.questions'), render: (s) => s.question_count },
    { key: 'projects', header: t('surveys.projects'), render: (s) => s.project_count },
    {
      key: 'updated',
      header: t('surveys.updatedAt'),
      sortField: 'updated_at',
      render: (s) => formatDate(s.updated_at),
    },
    {
      key: 'actions',
      header: t('common.actions'),
      render: (s) => (
        <Button
          size="xs"
          variant="default"
          aria-label={`${t('surveys.duplicate')} ${s.name}`}
          loading={duplicate.isPending && duplicate.variables === s.id}
          onClick={() =>
            duplicate.mutate(s.id, {
              onSuccess: (copy) => toastSuccess(t('surveys.duplicated', { name: copy.name })),
              onError: (error) => toastError(errorMessage(error, t)),
            })
          }
        >
          {t('surveys.duplicate')}
        </Button>
      ),
    },
  ];

  function deleteSelected() {
    const body = toSelectionBody(selection, { search: list.search || undefined, filter });
    if (!body) return;
    remove.mutate(body as Parameters<typeof remove.mutate>[0], {
      onSuccess: (result) => {
        toastSuccess(t('surveys.deleted', { count: result.ids.length }));
        setSelection(emptySelection);
        setConfirming(false);
      },
      onError: (error) => {
        toastError(errorMessage(error, t));
        setConfirming(false);
      },
    });
  }

  return (
    <Stack>
      <PageHeader
        title={t('surveys.title')}
        action={<Button onClick={() => setCreating(true)}>{t('surveys.new')}</Button>}
      />
      <Group align="flex-end" wrap="wrap">
        <TextInput {...search} placeholder={t('surveys.searchPlaceholder')} w={260} />
        <SurveyTemplateFilterFields filters={filters} onChange={() => setSelection(emptySelection)} />
        <Button color="red" variant="light" disabled={count === 0} onClick={() => setConfirming(true)}>
          {t('surveys.deleteSelected', { count })}
        </Button>
      </Group>
      <DataTable
        caption={t('surveys.title')}
        columns={columns}
        getRowId={(s) => s.id}
        {...table}
        selection={selection}
        onSelectionChange={setSelection}
      />
      <ConfirmDialog
        opened={confirming}
        title={t('surveys.deleteTitle')}
        message={t('surveys.deleteMessage', { count })}
        confirmLabel={t('common.delete')}
        busy={remove.isPending}
        onConfirm={deleteSelected}
        onClose={() => setConfirming(false)}
      />
      {creating && <NewTemplateModal onClose={() => setCreating(false)} />}
    </Stack>
  );
}

/** A name and a type; the builder opens at `/survey-templates/new?name=&type=` and creates it on its first save. */
function NewTemplateModal(props: { onClose(): void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useForm({
    initialValues: { name: '', type: 'START_NEW' as SurveyTemplateTypeValue },
    validate: contractResolver(createSurveyTemplateBody, t),
  });
  return (
    <Modal opened onClose={props.onClose} title={t('surveys.new')} centered>
      <form
        onSubmit={form.onSubmit((values) =>
          navigate(`/survey-templates/new?${new URLSearchParams({ name: values.name.trim(), type: values.type })}`),
        )}
      >
        <Stack>
          <TextInput label={t('surveys.name')} withAsterisk data-autofocus {...form.getInputProps('name')} />
          <Select
            label={t('surveys.type')}
            withAsterisk
            allowDeselect={false}
            data={surveyTemplateTypes.map((value) => ({ value, label: t(`surveys.types.${value}`) }))}
            description={t(`surveys.typeHelp.${form.values.type}`)}
            {...form.getInputProps('type')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit">{t('surveys.create')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
