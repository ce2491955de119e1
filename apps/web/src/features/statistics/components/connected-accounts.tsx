import { Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n';
import type { ConnectedAccount } from '@pss/contract';
import { DataTable, type Column } from '../../../components/data-table';
import { formatDateTime } from '../../../lib/format';
import { useListState } from '../../../lib/use-list-state';
import { useListTable } from '../../../lib/use-list-table';
import { connectedAccountsQueryOptions } from '../statistics-api';

const sortable = ['last_sign_in', 'name'] as const;

/** The client's participants who have signed in, with how often and when first and last. */
export function ConnectedAccounts(props: { projectId: string }) {
  const { t } = useTranslation();
  const list = useListState({ sortable });
  const accounts = useQuery(connectedAccountsQueryOptions(props.projectId, list.query));
  const { table } = useListTable(list, accounts, { empty: t('progress.accountsEmpty') });
  const columns: Column<ConnectedAccount>[] = [
    { key: 'name', header: t('progress.name'), sortField: 'name', render: (a) => `${a.last_name}, ${a.first_name}` },
    { key: 'email', header: t('progress.email'), render: (a) => a.email },
    { key: 'role', header: t('progress.role'), render: (a) => a.role },
    { key: 'sign_ins', header: t('progress.signIns'), render: (a) => a.sign_ins },
    { key: 'first_sign_in', header: t('progress.firstSignIn'), render: (a) => formatDateTime(a.first_sign_in) },
    {
      key: 'last_sign_in',
      header: t('progress.lastSignIn'),
      sortField: 'last_sign_in',
      render: (a) => formatDateTime(a.last_sign_in),
    },
  ];
  return (
    <Stack gap="sm" component="section" aria-labelledby="accounts-title">
      <div>
        <Title order={4} id="accounts-title">
          {t('progress.accountsTitle')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('progress.accountsHelp')}
        </Text>
      </div>
      <DataTable caption={t('progress.accountsTitle')} columns={columns} getRowId={(a) => a.user_id} {...table} />
    </Stack>
  );
}
