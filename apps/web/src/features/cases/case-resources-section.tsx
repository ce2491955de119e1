import { useState } from 'react';
import {
  ActionIcon,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n';
import {
  clientRoutes,
  resourceAttachmentStatuses,
  resourceRoutes,
  resourceSourceTypes,
  type Resource,
  type ResourceModalQuery,
} from '@pss/contract';
import { ResourceKind, ResourceThumbnail } from '../../components/resource-view';
import { call } from '../../lib/api-client';
import { errorMessage } from '../../lib/api-error';
import { toastError, toastSuccess } from '../../lib/toasts';

const caseResourceKeys = { ofCase: (id: string) => ['cases', 'resources', id] as const };

function Thumbnail({ resource }: { resource: Resource }) {
  const status = resource.file?.thumbnail_status;
  const link = useQuery({
    queryKey: ['cases', 'resource-thumbnail', resource.id, status],
    queryFn: ({ signal }) => call(resourceRoutes.thumbnailLink, { params: { id: resource.id } }, { signal }),
    enabled: status === 'READY',
    staleTime: 5 * 60 * 1000,
  });
  return (
    <ResourceThumbnail
      name={resource.name}
      type={resource.source_type}
      size={40}
      thumbnail={link.data ?? (resource.file ? { url: null, expires_at: null, thumbnail_status: status! } : null)}
    />
  );
}

/**
 * The Resources part of Case Setup: the case's resources from the library, in order, added
 * from a picker (filters: client, category, type, search, attachment) and removed one by
 * one. Saved at once; a published or active case shows them read-only.
 */
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

function ResourcePicker(props: {
  already: string[];
  busy: boolean;
  onClose(): void;
  onPick(ids: string[]): void | Promise<void>;
}) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [type, setType] = useState<string | null>(null);
  const [category, setCategory] = useState<string | null>(null);
  const [client, setClient] = useState<string | null>(null);
  const [attachment, setAttachment] = useState<string | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const query: ResourceModalQuery = {
    page: 1,
    limit: 50,
    ...(debounced ? { search: debounced } : {}),
    ...(type ? { type: type as ResourceModalQuery['type'] } : {}),
    ...(category ? { category } : {}),
    ...(client ? { client } : {}),
    ...(attachment ? { attachmentStatus: attachment as ResourceModalQuery['attachmentStatus'] } : {}),
  };
  const resources = useQuery({
    queryKey: ['cases', 'resource-modal', query],
    queryFn: ({ signal }) => call(resourceRoutes.modal, { query }, { signal }),
    placeholderData: keepPreviousData,
  });
  const categories = useQuery({
    queryKey: ['cases', 'resource-categories'],
    queryFn: ({ signal }) => call(resourceRoutes.categories, {}, { signal }),
  });
  const clients = useQuery({
    queryKey: ['cases', 'resource-clients'],
    queryFn: ({ signal }) => call(clientRoutes.list, { query: { limit: 200, sort: 'name:ASC' } }, { signal }),
  });
  const rows = (resources.data?.items ?? []).filter((r) => !props.already.includes(r.id));

  return (
    <Modal opened onClose={props.onClose} title={t('cases.resources.modalTitle')} size="xl" centered>
      <Stack>
        <Group align="flex-end" wrap="wrap" gap="xs">
          <TextInput
            label={t('cases.resources.search')}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            type="search"
            w={200}
          />
          <Select
            label={t('cases.resources.type')}
            placeholder={t('cases.resources.anyType')}
            data={resourceSourceTypes.map((value) => ({ value, label: t(`common.resourceView.types.${value}`) }))}
            value={type}
            onChange={setType}
            clearable
            w={130}
          />
          <Select
            label={t('cases.resources.category')}
            placeholder={t('cases.resources.anyCategory')}
            data={(categories.data?.items ?? []).map((c) => ({ value: c.id, label: c.name }))}
            value={category}
            onChange={setCategory}
            clearable
            w={150}
          />
          <Select
            label={t('cases.resources.client')}
            placeholder={t('cases.resources.anyClient')}
            data={(clients.data?.items ?? []).map((c) => ({ value: c.id, label: c.name }))}
            value={client}
            onChange={setClient}
            clearable
            w={150}
          />
          <Select
            label={t('cases.resources.attachment')}
            placeholder={t('cases.resources.anyAttachment')}
            data={resourceAttachmentStatuses.map((value) => ({ value, label: t(`cases.resources.status.${value}`) }))}
            value={attachment}
            onChange={setAttachment}
            clearable
            w={200}
          />
        </Group>
        {resources.error && <Text c="red">{errorMessage(resources.error, t)}</Text>}
        {resources.data && rows.length === 0 && <Text size="sm">{t('cases.resources.noMatches')}</Text>}
        {rows.length > 0 && (
          <Table.ScrollContainer minWidth={480} mah={420}>
            <Table>
              <Table.Tbody>
                {rows.map((r) => (
                  <Table.Tr key={r.id}>
                    <Table.Td w={40}>
                      <Checkbox
                        aria-label={t('cases.resources.pick', { name: r.name })}
                        checked={chosen.includes(r.id)}
                        onChange={(e) => {
                          // Read now: the event's target is gone by the time the updater runs.
                          const checked = e.currentTarget.checked;
                          setChosen((c) => (checked ? [...c, r.id] : c.filter((id) => id !== r.id)));
                        }}
                      />
                    </Table.Td>
                    <Table.Td w={56}>
                      <Thumbnail resource={r} />
                    </Table.Td>
                    <Table.Td>{r.name}</Table.Td>
                    <Table.Td>
                      <ResourceKind type={r.source_type} file={r.file} />
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light" color="gray">
                        {t(`cases.resources.status.${r.attachment_status}`)}
                      </Badge>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {t('common.cancel')}
          </Button>
          <Button disabled={chosen.length === 0} loading={props.busy} onClick={() => void props.onPick(chosen)}>
            {t('cases.resources.attach', { count: chosen.length })}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
