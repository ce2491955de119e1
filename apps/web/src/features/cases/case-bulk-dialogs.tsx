import { useState } from 'react';
import { Button, Group, Modal, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n';
import type { CaseSelection } from '@pss/contract';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { errorMessage } from '../../lib/api-error';
import { toastError, toastSuccess } from '../../lib/toasts';
import {
  clientProjectsQueryOptions,
  moduleSearchQueryOptions,
  projectSearchQueryOptions,
  useCopyModuleCases,
  useDeleteCases,
  useMoveCases,
  useRemoveModuleCases,
} from './cases-api';

/** A bulk call names one case in its path and the rest of the selection in its body. */
export type BulkTarget = { caseId: string; selection: CaseSelection };

export function DeleteCasesDialog(props: {
  count: number;
  /** In a module library, cases are removed from it; in a project, deleted. */
  moduleId: string | null;
  target: BulkTarget | null;
  onClose(done: boolean): void;
}) {
  const { t } = useTranslation();
  const remove = useDeleteCases();
  const removeFromModule = useRemoveModuleCases(props.moduleId ?? '');
  async function confirm() {
    if (!props.target) return props.onClose(false);
    try {
      const result = props.moduleId
        ? await removeFromModule.mutateAsync(props.target.selection)
        : await remove.mutateAsync(props.target);
      toastSuccess(t('cases.deleted', { count: result.ids.length }));
      props.onClose(true);
    } catch (error) {
      toastError(errorMessage(error, t));
      props.onClose(false);
    }
  }
  return (
    <ConfirmDialog
      opened
      title={t('cases.deleteTitle')}
      message={t('cases.deleteMessage', { count: props.count })}
      confirmLabel={t('common.delete')}
      busy={remove.isPending || removeFromModule.isPending}
      onConfirm={() => void confirm()}
      onClose={() => props.onClose(false)}
    />
  );
}

export function MoveCasesDialog(props: {
  count: number;
  clientId: string;
  currentProjectId: string;
  target: BulkTarget | null;
  onClose(done: boolean): void;
}) {
  const { t } = useTranslation();
  const projects = useQuery(clientProjectsQueryOptions(props.clientId));
  const move = useMoveCases();
  const [projectId, setProjectId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const options = (projects.data?.items ?? [])
    .filter((p) => p.id !== props.currentProjectId)
    .map((p) => ({ value: p.id, label: p.name }));

  async function confirm() {
    if (!props.target || !projectId) return;
    try {
      const result = await move.mutateAsync({ ...props.target, projectId });
      toastSuccess(t('cases.moved', { count: result.ids.length }));
      props.onClose(true);
    } catch (failure) {
      setError(errorMessage(failure, t));
    }
  }

  return (
    <Modal opened onClose={() => props.onClose(false)} title={t('cases.moveTitle', { count: props.count })} centered>
      <Stack>
        <Text size="sm">{t('cases.moveHelp')}</Text>
        <Select
          label={t('cases.moveTo')}
          data={options}
          value={projectId}
          onChange={setProjectId}
          searchable
          nothingFoundMessage={t('cases.noOtherProjects')}
          data-autofocus
        />
        {error && (
          <Text c="red.8" size="sm" role="alert">
            {error}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => props.onClose(false)}>
            {t('common.cancel')}
          </Button>
          <Button onClick={() => void confirm()} loading={move.isPending} disabled={!projectId}>
            {t('cases.move')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * Copies module cases into a project (or another module). A refusal says why in the dialog:
 * the project lacks the case's disease type or question categories.
 */
export function CopyModuleCasesDialog(props: {
  count: number;
  moduleId: string;
  caseIds(): Promise<string[]>;
  onClose(done: boolean): void;
}) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<'project' | 'module'>('project');
  const [search, setSearch] = useState('');
  const [target, setTarget] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const projects = useQuery(projectSearchQueryOptions(search));
  const modules = useQuery(moduleSearchQueryOptions());
  const copy = useCopyModuleCases();
  const options =
    kind === 'project'
      ? (projects.data?.items ?? []).map((p) => ({ value: p.id, label: `${p.client_name} › ${p.name}` }))
      : (modules.data?.items ?? []).filter((m) => m.id !== props.moduleId).map((m) => ({ value: m.id, label: m.name }));

  async function confirm() {
    if (!target) return;
    setError(null);
    try {
      const result = await copy.mutateAsync({
        caseIds: await props.caseIds(),
        target: kind === 'project' ? { project_id: target } : { module_id: target },
      });
      toastSuccess(t('cases.copied', { count: result.ids.length }));
      props.onClose(true);
    } catch (failure) {
      setError(errorMessage(failure, t));
    }
  }

  return (
    <Modal opened onClose={() => props.onClose(false)} title={t('cases.copyTitle', { count: props.count })} centered>
      <Stack>
        <SegmentedControl
          aria-label={t('cases.copyInto')}
          value={kind}
          onChange={(value) => {
            setKind(value as 'project' | 'module');
            setTarget(null);
            setError(null);
          }}
          data={[
            { value: 'project', label: t('cases.copyIntoProject') },
            { value: 'module', label: t('cases.copyIntoModule') },
          ]}
        />
        <Text size="sm">{t('cases.copyHelp')}</Text>
        <Select
          label={kind === 'project' ? t('cases.copyToProject') : t('cases.copyToModule')}
          data={options}
          value={target}
          onChange={(value) => {
            setTarget(value);
            setError(null);
          }}
          searchable
          nothingFoundMessage={t('cases.noTargets')}
          // Projects are searched on the server; picking one writes its label, which is not a search.
          onSearchChange={(value) => kind === 'project' && !value.includes(' › ') && setSearch(value)}
          data-autofocus
        />
        {error && (
          <Text c="red.8" size="sm" role="alert">
            {error}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => props.onClose(false)}>
            {t('common.cancel')}
          </Button>
          <Button onClick={() => void confirm()} loading={copy.isPending} disabled={!target}>
            {t('cases.copy')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
