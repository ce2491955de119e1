import { useState } from 'react';
import { Button, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import { QueryError } from '../../components/query-error';
import { PageHeader } from '../../components/page-header';
import { StatusBadge } from '../../components/status-badge';
import { formatDate } from '../../lib/format';
import { HistorySection } from '../../components/history-section';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { errorMessage } from '../../lib/api-error';
import { toastError, toastSuccess } from '../../lib/toasts';
import { UserDetailsForm } from './user-details-form';
import { assignmentsQueryOptions, resetSecondFactors, userQueryOptions } from './users-api';
import { ParticipantLinkActions } from '../../components/participant-link/participant-link-actions';

/** A user's details, their projects (archive state, notes) and assignments. */
export function UserDetailsPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const user = useQuery(userQueryOptions(id));
  const assignments = useQuery(assignmentsQueryOptions(id));
  const client = useQueryClient();
  const [resetting, setResetting] = useState(false);
  const reset = useMutation({
    mutationFn: () => resetSecondFactors(id!),
    onSuccess: () => {
      toastSuccess(t('security.resetDone', { name }));
      setResetting(false);
      // The History section shows the reset.
      void client.invalidateQueries();
    },
    onError: (error) => toastError(errorMessage(error, t)),
  });

  if (user.error) {
    return <QueryError error={user.error} onRetry={() => void user.refetch()} />;
  }
  const data = user.data;
  const isStaff = data?.role === 'ADMIN' || data?.role === 'SUPERADMIN';
  const name = data ? `${data.first_name} ${data.last_name}` : '';

  return (
    <>
      <PageHeader
        title={data ? name : t('app.loading')}
        crumbs={[{ label: t('tabs.userManagement'), to: '/user-management' }, { label: data?.email ?? '…' }]}
        action={
          isStaff && (
            <Button variant="default" color="red" onClick={() => setResetting(true)}>
              {t('security.resetTitle')}
            </Button>
          )
        }
      />
      <ConfirmDialog
        opened={resetting}
        title={t('security.resetTitle')}
        message={t('security.resetMessage', { name })}
        confirmLabel={t('security.resetTitle')}
        busy={reset.isPending}
        onConfirm={() => reset.mutate()}
        onClose={() => setResetting(false)}
      />
      {!data ? (
        <Skeleton h={300} />
      ) : (
        <Stack gap="xl">
          {/* Fresh data (after a save) starts the form again from what was stored. */}
          <UserDetailsForm key={user.dataUpdatedAt} user={data} />
          {!isStaff && (
            <>
              <Title order={3} size="h4">
                {t('users.projects')}
              </Title>
              <Table.ScrollContainer minWidth={500}>
                <Table>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('users.project')}</Table.Th>
                      <Table.Th>{t('common.participantState')}</Table.Th>
                      <Table.Th>{t('common.dataStatus')}</Table.Th>
                      <Table.Th>{t('common.notes')}</Table.Th>
                      <Table.Th>{t('participants.link.column')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.projects.map((p) => (
                      <Table.Tr key={p.project_id}>
                        <Table.Td>{p.project_name}</Table.Td>
                        <Table.Td>{p.archived ? t('common.archived') : t('common.active')}</Table.Td>
                        <Table.Td>
                          <StatusBadge color={p.data_status === 'READY' ? 'teal' : 'red'}>
                            {t(`common.dataStatusValue.${p.data_status}`)}
                          </StatusBadge>
                        </Table.Td>
                        <Table.Td>{p.notes ?? '—'}</Table.Td>
                        <Table.Td>
                          {p.archived ? (
                            '—'
                          ) : (
                            <ParticipantLinkActions
                              projectId={p.project_id}
                              userId={data.id}
                              name={`${data.first_name} ${data.last_name}`}
                              email={data.email}
                            />
                          )}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
              {data.projects.length === 0 && <Text c="dimmed">{t('users.noProjects')}</Text>}
              <Title order={3} size="h4">
                {t('users.assignments')}
              </Title>
              <Table.ScrollContainer minWidth={500}>
                <Table data-testid="assignments">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('users.project')}</Table.Th>
                      <Table.Th>{t('users.season')}</Table.Th>
                      <Table.Th>{t('users.rounds')}</Table.Th>
                      <Table.Th>{t('users.startDate')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {(assignments.data ?? []).map((a) => (
                      <Table.Tr key={a.season_id}>
                        <Table.Td>{a.project_name}</Table.Td>
                        <Table.Td>{a.season_name}</Table.Td>
                        <Table.Td>{a.rounds.join(', ')}</Table.Td>
                        <Table.Td>{formatDate(`${a.start_date}T12:00:00Z`)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
              {assignments.data?.length === 0 && <Text c="dimmed">{t('users.noAssignments')}</Text>}
            </>
          )}
          <HistorySection targetType="user" targetId={data.id} version={user.dataUpdatedAt} />
        </Stack>
      )}
    </>
  );
}
