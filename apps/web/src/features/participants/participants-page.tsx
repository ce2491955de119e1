import { useMemo, useState } from 'react';
import { Button, Group, SegmentedControl, Select, Stack, Text, TextInput, Textarea, Modal, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import { participantRoutes, participantSortFields, type Participant, type ParticipantFilter } from '@pss/contract';
import { DataTable, type Column } from '../../components/data-table';
import { StatusBadge } from '../../components/status-badge';
import { errorMessage } from '../../lib/api-error';
import { callRaw } from '../../lib/api-client';
import { saveDownload } from '../../lib/download';
import { formatDate } from '../../lib/format';
import { emptySelection, selectedCount, toSelectionBody, type SelectionState } from '../../lib/selection';
import { toastError, toastSuccess } from '../../lib/toasts';
import { useListState } from '../../lib/use-list-state';
import { useListTable } from '../../lib/use-list-table';
import { useUrlParam } from '../../lib/use-url-param';
import { ParticipantImportModal } from './participant-import-modal';
import { ParticipantEmail } from './participant-email';
import { ParticipantLinkActions } from '../../components/participant-link/participant-link-actions';
import { useImportJob } from '../../lib/use-import-job';
import { participantImports, participantListQueryOptions, useSaveNotes, useSetArchived } from './participants-api';

/** Project Assignments: the project's participants, their import, archive state and notes. */
export function ParticipantsPage() {
  const { t } = useTranslation();
  const { projectId = '' } = useParams();
  const list = useListState({ sortable: participantSortFields });
  const [archivedParam, setArchivedParam] = useUrlParam('archived');
  const [dataStatusParam, setDataStatusParam] = useUrlParam('data_status');
  const archived = archivedParam === 'true';
  const dataStatus = dataStatusParam as 'READY' | 'NOT_READY' | null;
  const [progressParam, setProgressParam] = useUrlParam('progress');
  const progress = progressParam as ParticipantFilter['progress'] | null;
  const [emailStateParam, setEmailStateParam] = useUrlParam('email_state');
  const emailState = emailStateParam as ParticipantFilter['email_state'] | null;
  const filter: ParticipantFilter = {
    archived,
    ...(emailState ? { email_state: emailState } : {}),
    ...(dataStatus ? { data_status: dataStatus } : {}),
    ...(progress ? { progress } : {}),
  };
  const participants = useQuery(participantListQueryOptions(projectId, { ...list.query, filter }));
  // Archiving waits while an import into the project runs (the server refuses it too).
  const importSource = useMemo(() => participantImports(projectId), [projectId]);
  const { running: blocked } = useImportJob(importSource);
  const [selection, setSelection] = useState<SelectionState>(emptySelection);
  const { table, search } = useListTable(list, participants, {
    empty: { none: t('participants.empty'), noMatches: t('participants.noMatches') },
    filtered: Boolean(dataStatus || progress || emailState || archived),
    onSearchInput: () => setSelection(emptySelection),
  });
  const [importing, setImporting] = useState(false);
  const [editingNotes, setEditingNotes] = useState<Participant | null>(null);
  const setArchived = useSetArchived(projectId);
  const total = participants.data?.total ?? 0;
  const count = selectedCount(selection, total);

  function setFilter(set: (value: string | null) => void, value: string | null) {
    setSelection(emptySelection);
    set(value);
  }

  async function archiveSelected() {
    const body = toSelectionBody(selection, { search: list.search || undefined, filter: { ...filter } });
    if (!body) return;
    try {
      const selectionBody =
        'ids' in body ? { ids: body.ids } : { all: true as const, except: body.except, search: body.search, filter };
      const result = await setArchived.mutateAsync({ archived: !archived, selection: selectionBody });
      toastSuccess(t(archived ? 'participants.unarchived' : 'participants.archived', { count: result.updated }));
      setSelection(emptySelection);
    } catch (error) {
      toastError(errorMessage(error, t));
    }
  }

  const columns: Column<Participant>[] = [
    {
      key: 'name',
      header: t('participants.name'),
      sortField: 'name',
      render: (p) => `${p.last_name}, ${p.first_name}`,
    },
    {
      key: 'email',
      header: t('participants.email'),
      sortField: 'email',
      render: (p) => <ParticipantEmail email={p.email} state={p.email_state ?? null} />,
    },
    { key: 'user_id', header: t('participants.userId'), render: (p) => p.employee_id ?? '—' },
    { key: 'profession', header: t('participants.profession'), render: (p) => p.profession ?? '—' },
    { key: 'role', header: t('participants.role'), render: (p) => t(`participants.roles.${p.role}`) },
    {
      key: 'data_status',
      header: t('common.dataStatus'),
      render: (p) => (
        <StatusBadge color={p.data_status === 'READY' ? 'teal' : 'red'}>
          {t(`common.dataStatusValue.${p.data_status}`)}
        </StatusBadge>
      ),
    },
    {
      key: 'completed',
      header: t('participants.completedCases'),
      render: (p) => p.completed_cases,
    },
    {
      key: 'added_at',
      header: t('participants.addedAt'),
      sortField: 'added_at',
      render: (p) => formatDate(p.added_at),
    },
    {
      key: 'notes',
      header: t('common.notes'),
      render: (p) => (
        <Button
          size="compact-sm"
          variant="subtle"
          onClick={() => setEditingNotes(p)}
          aria-label={t('participants.notesFor', { name: `${p.first_name} ${p.last_name}` })}
        >
          {p.notes ? t('participants.editNotes') : t('participants.addNotes')}
        </Button>
      ),
    },
    // An archived participant's dashboard is closed: no link to hand them.
    ...(archived
      ? []
      : [
          {
            key: 'link',
            header: t('participants.link.column'),
            render: (p: Participant) => (
              <ParticipantLinkActions
                projectId={projectId}
                userId={p.user_id}
                name={`${p.first_name} ${p.last_name}`}
                email={p.email}
              />
            ),
          },
        ]),
  ];

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={3}>{t('participants.title')}</Title>
        <Group gap="xs">
          <Button
            variant="default"
            onClick={() =>
              void saveDownload(
                callRaw(participantRoutes.exportCsv, {
                  params: { id: projectId },
                  query: { search: list.search || undefined, filter: JSON.stringify(filter) },
                }),
                'participants.csv',
              ).catch((error: unknown) => toastError(errorMessage(error, t)))
            }
          >
            {t('participants.export')}
          </Button>
          <Button onClick={() => setImporting(true)}>{t('participants.import')}</Button>
        </Group>
      </Group>
      {blocked && (
        <Text size="sm" c="red.9">
          {t('participants.importRunning')}
        </Text>
      )}
      <Group align="flex-end" wrap="wrap">
        <TextInput {...search} placeholder={t('participants.searchPlaceholder')} w={280} />
        <SegmentedControl
          aria-label={t('common.participantState')}
          value={archived ? 'archived' : 'active'}
          onChange={(value) => setFilter(setArchivedParam, value === 'archived' ? 'true' : null)}
          data={[
            { value: 'active', label: t('common.active') },
            { value: 'archived', label: t('common.archived') },
          ]}
        />
        <Select
          label={t('common.dataStatus')}
          value={dataStatus ?? 'all'}
          onChange={(value) => setFilter(setDataStatusParam, value && value !== 'all' ? value : null)}
          data={[
            { value: 'all', label: t('common.all') },
            { value: 'READY', label: t('common.dataStatusValue.READY') },
            { value: 'NOT_READY', label: t('common.dataStatusValue.NOT_READY') },
          ]}
          allowDeselect={false}
          w={160}
        />
        <Select
          label={t('participants.progress')}
          value={progress ?? 'all'}
          onChange={(value) => setFilter(setProgressParam, value && value !== 'all' ? value : null)}
          data={[
            { value: 'all', label: t('common.all') },
            { value: 'NOT_STARTED', label: t('participants.progressValue.NOT_STARTED') },
            { value: 'IN_PROGRESS', label: t('participants.progressValue.IN_PROGRESS') },
            { value: 'COMPLETE', label: t('participants.progressValue.COMPLETE') },
          ]}
          allowDeselect={false}
          w={160}
        />
        <Select
          label={t('participants.emailState.filter')}
          value={emailState ?? 'all'}
          onChange={(value) => setFilter(setEmailStateParam, value && value !== 'all' ? value : null)}
          data={[
            { value: 'all', label: t('common.all') },
            { value: 'SUPPRESSED', label: t('participants.emailState.SUPPRESSED') },
            { value: 'DELIVERABLE', label: t('participants.emailState.DELIVERABLE') },
          ]}
          allowDeselect={false}
          w={170}
        />
        {count > 0 && (
          <Button
            color={archived ? 'blue' : 'red'}
            variant="light"
            onClick={() => void archiveSelected()}
            loading={setArchived.isPending}
            disabled={blocked}
          >
            {archived ? t('participants.unarchiveSelected', { count }) : t('participants.archiveSelected', { count })}
          </Button>
        )}
      </Group>
      <DataTable
        caption={t('participants.title')}
        columns={columns}
        getRowId={(p) => p.user_id}
        {...table}
        selection={selection}
        onSelectionChange={setSelection}
      />
      {importing && <ParticipantImportModal projectId={projectId} opened onClose={() => setImporting(false)} />}
      {editingNotes && (
        <NotesModal projectId={projectId} participant={editingNotes} onClose={() => setEditingNotes(null)} />
      )}
    </Stack>
  );
}

function NotesModal(props: { projectId: string; participant: Participant; onClose(): void }) {
  const { t } = useTranslation();
  const save = useSaveNotes(props.projectId);
  const [notes, setNotes] = useState(props.participant.notes ?? '');
  return (
    <Modal
      opened
      onClose={props.onClose}
      title={t('participants.notesFor', { name: `${props.participant.first_name} ${props.participant.last_name}` })}
      centered
    >
      <Stack>
        <Textarea
          label={t('common.notes')}
          value={notes}
          onChange={(e) => setNotes(e.currentTarget.value)}
          autosize
          minRows={3}
          data-autofocus
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            loading={save.isPending}
            onClick={() =>
              save.mutate(
                { userId: props.participant.user_id, notes: notes.trim() || null },
                {
                  onSuccess: () => {
                    toastSuccess(t('participants.notesSaved'));
                    props.onClose();
                  },
                  onError: (error) => toastError(errorMessage(error, t)),
                },
              )
            }
          >
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
