import { useState } from 'react';
import { Anchor, Button, Group, Modal, PasswordInput, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { Link } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import { FormActions, FormError } from '../../components/form-parts';
import {
  createStaffUserBody,
  userRoles,
  userSortFields,
  type CreateStaffUserBody,
  type UserSummary,
} from '@pss/contract';
import { DataTable, type Column } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { formatDate } from '../../lib/format';
import { contractResolver, showSaveErrors } from '../../lib/form-errors';
import { toastSuccess } from '../../lib/toasts';
import { useListState } from '../../lib/use-list-state';
import { useListTable } from '../../lib/use-list-table';
import { useUrlParam } from '../../lib/use-url-param';
import { clientOptionsQueryOptions, useCreateStaffUser, userListQueryOptions } from './users-api';

const roleFilters = ['all', ...userRoles] as const;

/** User Management: everyone on the platform, and new staff accounts. */
export function UsersListPage() {
  const { t } = useTranslation();
  const list = useListState({ sortable: userSortFields });
  const [roleParam, setRole] = useUrlParam('role');
  const role = roleParam ?? 'all';
  const [creating, setCreating] = useState(false);
  const users = useQuery(
    userListQueryOptions({ ...list.query, filter: role === 'all' ? undefined : JSON.stringify({ role }) }),
  );
  const { table, search } = useListTable(list, users, { empty: t('users.noMatches') });

  const columns: Column<UserSummary>[] = [
    {
      key: 'name',
      header: t('users.name'),
      sortField: 'last_name',
      render: (u) => (
        <Anchor component={Link} to={`/user-management/${u.id}`}>
          {u.last_name}, {u.first_name}
        </Anchor>
      ),
    },
    { key: 'email', header: t('users.email'), sortField: 'email', render: (u) => u.email },
    { key: 'role', header: t('users.role'), sortField: 'role', render: (u) => t(`users.roles.${u.role}`) },
    { key: 'client', header: t('users.client'), render: (u) => u.client_name ?? '—' },
    { key: 'employee_id', header: t('users.userId'), render: (u) => u.employee_id ?? '—' },
    {
      key: 'created_at',
      header: t('users.createdAt'),
      sortField: 'created_at',
      render: (u) => formatDate(u.created_at),
    },
  ];

  return (
    <>
      <PageHeader
        title={t('tabs.userManagement')}
        action={<Button onClick={() => setCreating(true)}>{t('users.newStaff')}</Button>}
      />
      <Group align="flex-end" mb="md">
        <TextInput {...search} placeholder={t('users.searchPlaceholder')} w={320} />
        <Select
          label={t('users.role')}
          value={role}
          onChange={(value) => setRole(value && value !== 'all' ? value : null)}
          data={roleFilters.map((r) => ({ value: r, label: r === 'all' ? t('common.all') : t(`users.roles.${r}`) }))}
          allowDeselect={false}
          w={200}
        />
      </Group>
      <DataTable caption={t('tabs.userManagement')} columns={columns} getRowId={(u) => u.id} {...table} />
      {creating && <StaffAccountModal onClose={() => setCreating(false)} />}
    </>
  );
}

interface StaffAccountValues {
  email: string;
  first_name: string;
  last_name: string;
  role: 'ADMIN' | 'SUPERADMIN';
  client_id: string;
  password: string;
}

// Only a client administrator belongs to a client.
const staffAccountBody = (values: StaffAccountValues): CreateStaffUserBody => ({
  ...values,
  client_id: values.role === 'ADMIN' ? values.client_id || null : null,
});

function StaffAccountModal(props: { onClose(): void }) {
  const { t } = useTranslation();
  const create = useCreateStaffUser();
  const clients = useQuery(clientOptionsQueryOptions());
  const form = useForm<StaffAccountValues, CreateStaffUserBody>({
    initialValues: { email: '', first_name: '', last_name: '', role: 'ADMIN', client_id: '', password: '' },
    validate: contractResolver(createStaffUserBody, t, staffAccountBody),
    transformValues: staffAccountBody,
  });
  const [formError, setFormError] = useState<string | null>(null);

  async function submit(body: CreateStaffUserBody) {
    setFormError(null);
    try {
      const user = await create.mutateAsync(body);
      toastSuccess(t('users.created', { email: user.email }));
      props.onClose();
    } catch (error) {
      setFormError(showSaveErrors(form, error, t, { EMAIL_ALREADY_EXISTS: 'email' }));
    }
  }

  return (
    <Modal opened onClose={props.onClose} title={t('users.newStaff')} centered>
      <form onSubmit={form.onSubmit(submit, () => setFormError(null))} noValidate>
        <Stack>
          <FormError message={formError} />
          <Select
            label={t('users.role')}
            value={form.values.role}
            onChange={(v) => form.setFieldValue('role', v === 'SUPERADMIN' ? 'SUPERADMIN' : 'ADMIN')}
            data={[
              { value: 'ADMIN', label: t('users.roles.ADMIN') },
              { value: 'SUPERADMIN', label: t('users.roles.SUPERADMIN') },
            ]}
            allowDeselect={false}
          />
          {form.values.role === 'ADMIN' && (
            <Select
              label={t('users.client')}
              searchable
              value={form.values.client_id || null}
              onChange={(v) => form.setFieldValue('client_id', v ?? '')}
              data={(clients.data?.items ?? []).map((c) => ({ value: c.id, label: c.name }))}
              error={form.errors.client_id}
              required
            />
          )}
          <TextInput label={t('users.email')} type="email" {...form.getInputProps('email')} required data-autofocus />
          <TextInput label={t('users.firstName')} {...form.getInputProps('first_name')} required />
          <TextInput label={t('users.lastName')} {...form.getInputProps('last_name')} required />
          <PasswordInput
            label={t('users.password')}
            {...form.getInputProps('password')}
            required
            autoComplete="new-password"
          />
          <FormActions saving={create.isPending} onCancel={props.onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
