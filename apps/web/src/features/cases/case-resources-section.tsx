import { useState } from 'react';
import { ActionIcon, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n';
import { resourceRoutes } from '@pss/contract';
import { ResourceKind } from '../../components/resource-view';
import { call } from '../../lib/api-client';
import { errorMessage } from '../../lib/api-error';
import { toastError, toastSuccess } from '../../lib/toasts';

import { lazyDialog } from '../../components/lazy-dialog';
import { Thumbnail } from './case-resource-thumbnail';

const ResourcePicker = lazyDialog(async () => (await import('./case-resource-picker')).ResourcePicker);

const caseResourceKeys = { ofCase: (id: string) => ['cases', 'resources', id] as const };

export function CaseResourcesSection(props: { caseId: string; readOnly: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const attached = useQuery({
    queryKey: caseResourceKeys.ofCase(props.caseId),
    queryFn: ({ signal }) => call(resourceRoutes.ofCase, { params: { id: props.caseId } }, { signal }),
  });
  const save = useMutation({
    mutationFn: (ids: string[]) =>
      call(resourceRoutes.setOfCase, { params: { id: props.caseId }, body: { resource_ids: ids } }),
    onSuccess: (saved) => {
      queryClient.setQueryData(caseResourceKeys.ofCase(props.caseId), saved);
      toastSuccess(t('cases.resources.saved'));
    },
    onError: (error) => toastError(errorMessage(error, t)),
  });
  const [picking, setPicking] = useState(false);
  const items = attached.data?.items ?? [];

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="case-resources-title">
      <Stack>
        <Group justify="space-between">
          <Title order={4} id="case-resources-title">
            {t('cases.resources.title')}
          </Title>
          {!props.readOnly && (
            <Button variant="default" onClick={() => setPicking(true)}>
              {t('cases.resources.add')}
            </Button>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          {t('cases.resources.help')}
        </Text>
        {attached.error && <Text c="red">{errorMessage(attached.error, t)}</Text>}
        {attached.data && items.length === 0 && <Text size="sm">{t('cases.resources.none')}</Text>}
        {items.length > 0 && (
          <Stack gap="xs" data-testid="case-resources">
            {items.map((r) => (
              <Group key={r.id} justify="space-between" wrap="nowrap">
                <Group gap="sm" wrap="nowrap">
                  <Thumbnail resource={r} />
                  <Text fw={500}>{r.name}</Text>
                  <ResourceKind type={r.source_type} file={r.file} />
                </Group>
                {!props.readOnly && (
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('cases.resources.remove', { name: r.name })}
                    onClick={() => save.mutate(items.filter((x) => x.id !== r.id).map((x) => x.id))}
                  >
                    ×
                  </ActionIcon>
                )}
              </Group>
            ))}
          </Stack>
        )}
      </Stack>
      {picking && (
        <ResourcePicker
          already={items.map((r) => r.id)}
          busy={save.isPending}
          onClose={() => setPicking(false)}
          onPick={async (ids) => {
            await save.mutateAsync([...items.map((r) => r.id), ...ids]).catch(() => undefined);
            setPicking(false);
          }}
        />
      )}
    </Paper>
  );
}
