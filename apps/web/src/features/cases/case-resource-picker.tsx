import { useState } from 'react';
import { Badge, Button, Checkbox, Group, Modal, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n';
import {
  clientRoutes,
  resourceAttachmentStatuses,
  resourceRoutes,
  resourceSourceTypes,
  type ResourceModalQuery,
} from '@pss/contract';
import { ResourceKind } from '../../components/resource-view';
import { call } from '../../lib/api-client';
import { errorMessage } from '../../lib/api-error';

import { Thumbnail } from './case-resource-thumbnail';

/** The dialog that finds resources (search, type, category, client, attachment) and picks some for the case. */
export function ResourcePicker(props: {
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
