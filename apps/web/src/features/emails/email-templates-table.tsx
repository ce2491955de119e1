import { useState } from 'react';
import { Button, Group, Switch, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import { useListTable } from '../../lib/use-list-table';
import { isCertificateEmail, isManualOnlyEmail, type EmailTemplate } from '@pss/contract';
import { DataTable, type Column } from '../../components/data-table';
import { StatusBadge } from '../../components/status-badge';
import { errorMessage } from '../../lib/api-error';
import { toastError, toastSuccess } from '../../lib/toasts';
import { emailTemplatesQueryOptions, useSetEmailEnabled, type EmailSet } from './emails-api';
import { lazyDialog } from '../../components/lazy-dialog';

const SendNowDialog = lazyDialog(async () => (await import('./send-now-dialog')).SendNowDialog);

/**
 * One set of emails (the project's eight or a season's five): each with its subject, send
 * mode, an enabled switch, its editor and a manual send (but the Certificate Email, which
 * names one certificate and so goes only when it is issued).
 */
export function EmailTemplatesTable(props: {
  projectId: string;
  set: EmailSet;
  caption: string;
  /** Where an email's editor is, from its id. */
  editPath(template: EmailTemplate): string;
  /** What names an email in its controls' labels (a season's variants share the project emails' names). */
  labelOf?(template: EmailTemplate): string;
}) {
  const { t } = useTranslation();
  const templates = useQuery(emailTemplatesQueryOptions(props.projectId, props.set));
  const { table } = useListTable(null, templates, { empty: t('emails.empty') });
  const setEnabled = useSetEmailEnabled(props.projectId, props.set);
  // The switch being changed shows its new state until the server answers.
  const [pending, setPending] = useState<{ id: string; enabled: boolean } | null>(null);
  const [sending, setSending] = useState<EmailTemplate | null>(null);
  const labelOf = props.labelOf ?? ((e: EmailTemplate) => e.name);

  async function toggle(template: EmailTemplate, enabled: boolean) {
    setPending({ id: template.id, enabled });
    try {
      await setEnabled.mutateAsync({ id: template.id, enabled });
      toastSuccess(t(enabled ? 'emails.enabledOn' : 'emails.disabledOn', { name: labelOf(template) }));
    } catch (error) {
      toastError(errorMessage(error, t));
    } finally {
      setPending(null);
    }
  }

  const columns: Column<EmailTemplate>[] = [
    {
      key: 'name',
      header: t('emails.name'),
      render: (e) => (
        <div>
          <Text size="sm" fw={500}>
            {e.name}
          </Text>
          <Text size="xs" c="dimmed" lineClamp={2}>
            {e.subject}
          </Text>
        </div>
      ),
    },
    {
      key: 'send_mode',
      header: t('emails.sendMode'),
      render: (e) => (
        <div>
          <StatusBadge color={e.send_mode === 'AUTOMATIC' ? 'blue' : 'grape'}>
            {t(`emails.sendModeValue.${e.send_mode}`)}
          </StatusBadge>
          {isManualOnlyEmail(e.type) && (
            <Text size="xs" c="dimmed" mt={2}>
              {t('emails.manualOnly')}
            </Text>
          )}
          {isCertificateEmail(e.type) && (
            <Text size="xs" c="dimmed" mt={2}>
              {t('emails.certificateOnly')}
            </Text>
          )}
        </div>
      ),
    },
    {
      key: 'enabled',
      header: t('emails.enabled'),
      render: (e) => (
        <Switch
          aria-label={t('emails.enabledFor', { name: labelOf(e) })}
          checked={pending?.id === e.id ? pending.enabled : e.enabled}
          disabled={pending !== null}
          onChange={(event) => void toggle(e, event.currentTarget.checked)}
        />
      ),
    },
    {
      key: 'actions',
      header: t('common.actions'),
      render: (e) => (
        <Group gap={4} wrap="nowrap">
          <Button
            size="compact-sm"
            variant="subtle"
            component={Link}
            to={props.editPath(e)}
            aria-label={t('emails.editNamed', { name: labelOf(e) })}
          >
            {t('common.edit')}
          </Button>
          {!isCertificateEmail(e.type) && (
            <Button
              size="compact-sm"
              variant="subtle"
              onClick={() => setSending(e)}
              aria-label={t('emails.sendNowNamed', { name: labelOf(e) })}
            >
              {t('emails.sendNow')}
            </Button>
          )}
        </Group>
      ),
    },
  ];

  return (
    <>
      <DataTable caption={props.caption} columns={columns} getRowId={(e) => e.id} {...table} />
      {sending && <SendNowDialog projectId={props.projectId} template={sending} onClose={() => setSending(null)} />}
    </>
  );
}
