import { useState } from 'react';
import { Button, Group } from '@mantine/core';
import type { ParticipantLink } from '@pss/contract';
import { useMutation } from '@tanstack/react-query';
import { participantLinkRoutes } from '@pss/contract';
import { lazyDialog } from '../lazy-dialog';
import { call } from '../../lib/api-client';
import { errorMessage } from '../../lib/api-error';
import { useTranslation } from '../../lib/i18n';
import { toastError, toastSuccess } from '../../lib/toasts';

const ParticipantLinkModal = lazyDialog(async () => (await import('./participant-link-modal')).ParticipantLinkModal);

/**
 * One participant, one link (the project's participants list and a user's page): "Send link" emails them the project's Dashboard Link Email now;
 * "Copy link" takes a new single-use link and shows it once, to hand to them another way.
 */
export function ParticipantLinkActions(props: { projectId: string; userId: string; name: string; email: string }) {
  const { t } = useTranslation();
  const params = { userId: props.userId, projectId: props.projectId };
  const send = useMutation({ mutationFn: () => call(participantLinkRoutes.send, { params }) });
  const take = useMutation({ mutationFn: () => call(participantLinkRoutes.take, { params }) });
  const [link, setLink] = useState<ParticipantLink | null>(null);
  const { name, email } = props;
  return (
    <Group gap={4} wrap="nowrap">
      <Button
        size="compact-sm"
        variant="subtle"
        loading={send.isPending}
        aria-label={t('participants.link.sendFor', { name })}
        onClick={() =>
          send.mutate(undefined, {
            onSuccess: () => toastSuccess(t('participants.link.sent', { email })),
            onError: (error) => toastError(errorMessage(error, t)),
          })
        }
      >
        {t('participants.link.send')}
      </Button>
      <Button
        size="compact-sm"
        variant="subtle"
        loading={take.isPending}
        aria-label={t('participants.link.copyFor', { name })}
        onClick={() =>
          take.mutate(undefined, { onSuccess: setLink, onError: (error) => toastError(errorMessage(error, t)) })
        }
      >
        {t('participants.link.copy')}
      </Button>
      {link && <ParticipantLinkModal name={name} link={link} onClose={() => setLink(null)} />}
    </Group>
  );
}
