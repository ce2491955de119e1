import { lazy, Suspense, useState } from 'react';
import { Button, Group, Skeleton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Outlet, useNavigate, useParams } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import { QueryError } from '../../components/query-error';
import { StatusBadge } from '../../components/status-badge';
import type { Project } from '@pss/contract';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { PageHeader } from '../../components/page-header';
import { SectionNav } from '../../components/section-nav';
import { errorMessage } from '../../lib/api-error';
import { useSession } from '../../lib/session/session-provider';
import { toastError, toastSuccess } from '../../lib/toasts';
import { projectQueryOptions, useDeleteProject, useProjectStatus } from './projects-api';

/**
 * The edit dialog comes when it is opened: with its form's schema it would bring zod to every
 * project screen's first download.
 */
const ProjectFormModal = lazy(async () => ({ default: (await import('./project-form-modal')).ProjectFormModal }));

/** The project's sections (spec §2); later features fill the ones not set up yet. */
export const projectSections = [
  { path: '', labelKey: 'projects.sections.overview' },
  { path: 'cases', labelKey: 'projects.sections.cases' },
  { path: 'participants', labelKey: 'projects.sections.participants' },
  { path: 'surveys', labelKey: 'projects.sections.surveys' },
  { path: 'progress', labelKey: 'projects.sections.progress' },
  { path: 'elements', labelKey: 'projects.sections.elements' },
  { path: 'emails', labelKey: 'projects.sections.emails' },
  { path: 'cmes', labelKey: 'projects.sections.cmes' },
  { path: 'certificates', labelKey: 'projects.sections.certificates' },
  { path: 'history', labelKey: 'audit.history.title' },
] as const;

export interface ProjectOutletContext {
  project: Project;
}

export function ProjectLayout() {
  const { t } = useTranslation();
  const { clientId, projectId } = useParams();
  const navigate = useNavigate();
  const { state } = useSession();
  const project = useQuery(projectQueryOptions(projectId));
  const status = useProjectStatus();
  const remove = useDeleteProject();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const base = `/project-management/clients/${clientId}/projects/${projectId}`;
  const isSuperadmin = state.status === 'signed-in' && state.user.role === 'superadmin';

  if (project.error) {
    return <QueryError error={project.error} onRetry={() => void project.refetch()} />;
  }
  const data = project.data;
  const crumbs = [
    ...(isSuperadmin ? [{ label: t('tabs.projectManagement'), to: '/project-management' }] : []),
    { label: data?.client_name ?? '…', to: `/project-management/clients/${clientId}` },
    { label: data?.name ?? '…' },
  ];

  async function toggleArchive(current: Project) {
    try {
      const action = current.status === 'ACTIVE' ? 'archive' : 'restore';
      await status.mutateAsync({ id: current.id, action });
      toastSuccess(action === 'archive' ? t('projects.archived') : t('projects.restored'));
    } catch (error) {
      toastError(errorMessage(error, t));
    }
  }

  async function confirmDelete(current: Project) {
    try {
      await remove.mutateAsync(current.id);
      toastSuccess(t('projects.deleted', { name: current.name }));
      navigate(`/project-management/clients/${clientId}`);
    } catch (error) {
      toastError(errorMessage(error, t));
      setDeleting(false);
    }
  }

  return (
    <>
      <PageHeader
        title={data?.name ?? t('app.loading')}
        crumbs={crumbs}
        action={
          data && (
            <Group gap="xs">
              <StatusBadge size="lg" color={data.status === 'ACTIVE' ? 'teal' : 'gray'} data-testid="project-status">
                {t(`projects.statusValue.${data.status}`)}
              </StatusBadge>
              <Button variant="default" onClick={() => setEditing(true)}>
                {t('common.edit')}
              </Button>
              <Button variant="default" onClick={() => void toggleArchive(data)} loading={status.isPending}>
                {data.status === 'ACTIVE' ? t('common.archive') : t('common.restore')}
              </Button>
              <Button variant="subtle" color="red" onClick={() => setDeleting(true)}>
                {t('common.delete')}
              </Button>
            </Group>
          )
        }
      />
      <SectionNav
        label={t('projects.sectionsNav')}
        items={projectSections.map((section) => ({
          to: section.path ? `${base}/${section.path}` : base,
          label: t(section.labelKey),
          end: section.path === '',
        }))}
      />
      {data ? <Outlet context={{ project: data } satisfies ProjectOutletContext} /> : <Skeleton h={200} />}
      {editing && data && (
        <Suspense fallback={null}>
          <ProjectFormModal opened clientId={data.client_id} project={data} onClose={() => setEditing(false)} />
        </Suspense>
      )}
      {data && (
        <ConfirmDialog
          opened={deleting}
          title={t('projects.deleteTitle')}
          message={t('projects.deleteMessage', { name: data.name })}
          confirmLabel={t('common.delete')}
          busy={remove.isPending}
          onConfirm={() => void confirmDelete(data)}
          onClose={() => setDeleting(false)}
        />
      )}
    </>
  );
}
