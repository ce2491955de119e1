import { useState } from 'react';
import { Button, Card, Group, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import { QueryError } from '../../components/query-error';
import { PageHeader } from '../../components/page-header';
import { formatDate } from '../../lib/format';
import { ClientFormModal } from './client-form-modal';
import { clientQueryOptions } from './clients-api';
import { clientFieldDetails } from './client-fields-view';

/** Client Options: one client's details; a superadmin may edit them. */
export function ClientPage({ isSuperadmin }: { isSuperadmin: boolean }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const { clientId } = useParams();
  const client = useQuery(clientQueryOptions(clientId));

  if (client.error) {
    return <QueryError error={client.error} onRetry={() => void client.refetch()} />;
  }
  const crumbs = isSuperadmin
    ? [{ label: t('tabs.projectManagement'), to: '/project-management' }, { label: client.data?.name ?? '…' }]
    : undefined;
  return (
    <>
      <PageHeader
        title={client.data?.name ?? t('app.loading')}
        crumbs={crumbs}
        action={
          isSuperadmin && client.data ? (
            <Button variant="default" onClick={() => setEditing(true)}>
              {t('clients.editDetails')}
            </Button>
          ) : undefined
        }
      />
      {editing && client.data && <ClientFormModal opened client={client.data} onClose={() => setEditing(false)} />}
      <Card withBorder radius="md" maw={720}>
        <Text fw={600} mb="sm">
          {t('clients.details')}
        </Text>
        {client.data ? (
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {clientFieldDetails(t, client.data).map((line) => (
              <Detail key={line.name} label={line.label} value={line.value} />
            ))}
            <Detail label={t('clients.createdAt')} value={formatDate(client.data.created_at)} />
          </SimpleGrid>
        ) : (
          <Group grow>
            <Skeleton h={36} />
            <Skeleton h={36} />
            <Skeleton h={36} />
          </Group>
        )}
      </Card>
    </>
  );
}

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase">
        {label}
      </Text>
      <Text>{value}</Text>
    </Stack>
  );
}
