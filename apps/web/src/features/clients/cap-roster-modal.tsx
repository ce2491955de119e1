import { useState } from 'react';
import { Button, Code, Divider, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n';
import { ImportJobPanel } from '../../components/import-job-panel';
import { errorMessage } from '../../lib/api-error';
import { capImports, lookUpCapId } from './clients-api';

/**
 * The CAP member roster: upload a CSV (imported in the background, all or nothing, with
 * every rejected row listed), follow its progress, and look up one CAP ID.
 */
export function CapRosterModal(props: { opened: boolean; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={t('cap.title')} size="lg" centered>
      <Stack>
        <ImportJobPanel
          source={capImports}
          format={
            <>
              {t('cap.format')} <Code>cap_id,name,status</Code>
            </>
          }
          fileLabel={t('cap.file')}
          completeHint={t('cap.completeHint')}
          testId="cap-import-status"
        />
        <Divider />
        <CapLookup />
      </Stack>
    </Modal>
  );
}

function CapLookup() {
  const { t } = useTranslation();
  const [capId, setCapId] = useState('');
  const lookup = useMutation({
    mutationFn: lookUpCapId,
  });
  return (
    <Stack gap="xs">
      <Group align="flex-end">
        <TextInput
          label={t('cap.lookup')}
          value={capId}
          onChange={(e) => setCapId(e.currentTarget.value)}
          style={{ flex: 1 }}
        />
        <Button
          variant="default"
          onClick={() => capId.trim() && lookup.mutate(capId.trim())}
          loading={lookup.isPending}
        >
          {t('cap.check')}
        </Button>
      </Group>
      {lookup.data && (
        <Text size="sm" data-testid="cap-lookup-result">
          {lookup.data.cap_id}: {lookup.data.name} — {lookup.data.status}
        </Text>
      )}
      {lookup.error && (
        <Text size="sm" c="red" role="alert" data-testid="cap-lookup-error">
          {errorMessage(lookup.error, t)}
        </Text>
      )}
    </Stack>
  );
}
