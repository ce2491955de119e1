import { useEffect, useState, type FormEvent } from 'react';
import {
  Alert,
  Button,
  Card,
  Group,
  PasswordInput,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FormError } from '../../components/form-parts';
import { professions, updateUserBody, type UserDetails } from '@pss/contract';
import { PageHeader } from '../../components/page-header';
import { StatusBadge } from '../../components/status-badge';
import { errorMessage } from '../../lib/api-error';
import { formatDate } from '../../lib/format';
import { saveErrors, zodFieldErrors, type FieldErrors } from '../../lib/form-errors';
import { toastSuccess } from '../../lib/toasts';
import { assignmentsQueryOptions, useUpdateUser, userQueryOptions } from './users-api';

const textFields = [
  'email',
  'salutation',
  'first_name',
  'last_name',
  'display_name',
  'secondary_email',
  'mobile_number',
  'npi',
  'practice_number',
  'facility',
  'specialty',
  'manager_first_name',
  'manager_last_name',
  'manager_email',
  'user_type',
] as const;
type TextField = (typeof textFields)[number];
type FormState = Record<TextField, string> & { profession: string | null };

function formOf(user: UserDetails): FormState {
  const form = Object.fromEntries(textFields.map((f) => [f, user[f] ?? ''])) as Record<TextField, string>;
  return { ...form, profession: user.profession };
}

/** A user's details, their projects (archive state, notes) and assignments. */
export function UserDetailsPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const user = useQuery(userQueryOptions(id));
  const assignments = useQuery(assignmentsQueryOptions(id));
  const update = useUpdateUser(id ?? '');
  const [form, setForm] = useState<FormState | null>(null);
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);

  useEffect(() => {
    if (user.data) setForm(formOf(user.data));
  }, [user.data]);

  if (user.error) {
    return (
      <Alert color="red" role="alert" title={errorMessage(user.error, t)}>
        <Button size="xs" variant="light" color="red" onClick={() => void user.refetch()}>
          {t('table.retry')}
        </Button>
      </Alert>
    );
  }
  const data = user.data;
  const isStaff = data?.role === 'ADMIN' || data?.role === 'SUPERADMIN';

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!form) return;
    const body = { ...form, profession: form.profession || null, ...(isStaff && password ? { password } : {}) };
    const checked = updateUserBody.safeParse(body);
    setFormError(null);
    if (!checked.success) {
      setErrors(zodFieldErrors(checked.error, t));
      return;
    }
    setErrors({});
    try {
      await update.mutateAsync(checked.data);
      setPassword('');
      toastSuccess(t('users.saved'));
    } catch (error) {
      const result = saveErrors(error, t, { EMAIL_ALREADY_EXISTS: 'email' });
      setErrors(result.fields);
      setFormError(result.form);
    }
  }

  return (
    <>
      <PageHeader
        title={data ? `${data.first_name} ${data.last_name}` : t('app.loading')}
        crumbs={[{ label: t('tabs.userManagement'), to: '/user-management' }, { label: data?.email ?? '…' }]}
      />
      {!data || !form ? (
        <Skeleton h={300} />
      ) : (
        <Stack gap="xl">
          <Card withBorder radius="md">
            <form onSubmit={onSubmit} noValidate>
              <Stack>
                <Group justify="space-between">
                  <Title order={3} size="h4">
                    {t('users.details')}
                  </Title>
                  <Text size="sm" c="dimmed">
                    {t(`users.roles.${data.role}`)}
                    {data.client_name ? ` · ${data.client_name}` : ''}
                    {data.employee_id ? ` · ${t('users.userId')} ${data.employee_id}` : ''}
                  </Text>
                </Group>
                <FormError message={formError} />
                <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
                  {textFields.map((field) => (
                    <TextInput
                      key={field}
                      label={t(`users.fields.${field}`)}
                      value={form[field]}
                      onChange={(e) => {
                        const value = e.currentTarget.value;
                        setForm((f) => (f ? { ...f, [field]: value } : f));
                      }}
                      error={errors[field]}
                      required={field === 'email' || field === 'first_name' || field === 'last_name'}
                    />
                  ))}
                  {!isStaff && (
                    <Select
                      label={t('users.fields.profession')}
                      value={form.profession}
                      onChange={(value) => setForm((f) => (f ? { ...f, profession: value } : f))}
                      data={professions}
                      error={errors.profession}
                    />
                  )}
                  {isStaff && (
                    <PasswordInput
                      label={t('users.newPassword')}
                      description={t('users.newPasswordHint')}
                      value={password}
                      onChange={(e) => setPassword(e.currentTarget.value)}
                      error={errors.password}
                      autoComplete="new-password"
                    />
                  )}
                </SimpleGrid>
                <Group justify="flex-end">
                  <Button type="submit" loading={update.isPending}>
                    {t('common.save')}
                  </Button>
                </Group>
              </Stack>
            </form>
          </Card>
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
                      <Table.Th>{t('participants.state')}</Table.Th>
                      <Table.Th>{t('participants.dataStatus')}</Table.Th>
                      <Table.Th>{t('participants.notes')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.projects.map((p) => (
                      <Table.Tr key={p.project_id}>
                        <Table.Td>{p.project_name}</Table.Td>
                        <Table.Td>{p.archived ? t('participants.archivedFilter') : t('participants.active')}</Table.Td>
                        <Table.Td>
                          <StatusBadge color={p.data_status === 'READY' ? 'teal' : 'red'}>
                            {t(`participants.dataStatusValue.${p.data_status}`)}
                          </StatusBadge>
                        </Table.Td>
                        <Table.Td>{p.notes ?? '—'}</Table.Td>
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
                      <Table.Th>{t('projects.startDate')}</Table.Th>
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
        </Stack>
      )}
    </>
  );
}
