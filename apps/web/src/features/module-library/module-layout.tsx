import { lazy, Suspense, useState } from 'react';
import { Button, Group, Skeleton, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Outlet, useNavigate, useParams } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import { QueryError } from '../../components/query-error';
import type { ModuleLibrary } from '@pss/contract';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { PageHeader } from '../../components/page-header';
import { SectionNav } from '../../components/section-nav';
import { errorMessage } from '../../lib/api-error';
import { toastError, toastSuccess } from '../../lib/toasts';
import { moduleQueryOptions, useDeleteModule } from './module-library-api';

/** The edit dialog comes when it is opened: its form's schema would bring zod with it. */
const ModuleFormModal = lazy(async () => ({ default: (await import('./module-form-modal')).ModuleFormModal }));

const sections = [
  { path: 'cases', labelKey: 'modules.sections.cases' },
  { path: 'elements', labelKey: 'modules.sections.elements' },
  { path: 'projects', labelKey: 'modules.sections.projects' },
] as const;

/** A module library's page: its header, sections, and the module handed to them as context. */
export function ModuleLayout() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const query = useQuery(moduleQueryOptions(id));
  const remove = useDeleteModule();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);

  if (query.error) {
    return <QueryError error={query.error} onRetry={() => void query.refetch()} />;
  }
  const data = query.data;

  async function confirmDelete(current: ModuleLibrary) {
    try {
      await remove.mutateAsync(current.id);
      toastSuccess(t('modules.deleted', { name: current.name }));
      navigate('/module-library');
    } catch (error) {
      toastError(errorMessage(error, t));
      setDeleting(false);
    }
  }

  return (
    <>
      <PageHeader
        title={data?.name ?? t('app.loading')}
        crumbs={[{ label: t('modules.title'), to: '/module-library' }, { label: data?.name ?? '…' }]}
        action={
          data && (
            <Group gap="xs">
              <Button variant="default" onClick={() => setEditing(true)}>
                {t('common.edit')}
              </Button>
              <Button variant="subtle" color="red" onClick={() => setDeleting(true)}>
                {t('common.delete')}
              </Button>
            </Group>
          )
        }
      />
      {data && (
        <Text size="sm" c="dimmed" mb="sm">
          {t('modules.catalogues', {
            diseases: data.disease_types.map((d) => d.name).join(', '),
            categories: data.question_categories.map((c) => c.name).join(', '),
          })}
        </Text>
      )}
      <SectionNav
        label={t('modules.sectionsNav')}
        items={sections.map((section) => ({ to: `/module-library/${id}/${section.path}`, label: t(section.labelKey) }))}
      />
      {data ? <Outlet context={{ module: data }} /> : <Skeleton h={200} />}
      {editing && data && (
        <Suspense fallback={null}>
          <ModuleFormModal module={data} onClose={() => setEditing(false)} />
        </Suspense>
      )}
      {data && (
        <ConfirmDialog
          opened={deleting}
          title={t('modules.deleteTitle')}
          message={t('modules.deleteMessage', { name: data.name })}
          confirmLabel={t('common.delete')}
          busy={remove.isPending}
          onConfirm={() => void confirmDelete(data)}
          onClose={() => setDeleting(false)}
        />
      )}
    </>
  );
}
