import { useMemo } from 'react';
import { Anchor, Code, Modal } from '@mantine/core';
import { useTranslation } from '../../lib/i18n';
import { ImportJobPanel } from '../../components/import-job-panel';
import { participantRoutes } from '@pss/contract';
import { callRaw } from '../../lib/api-client';
import { saveDownload } from '../../lib/download';
import { participantImports } from './participants-api';

/** Upload a participant CSV and follow its import: progress, then done or every rejected row. */
export function ParticipantImportModal(props: { projectId: string; opened: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const source = useMemo(() => participantImports(props.projectId), [props.projectId]);
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={t('participants.importTitle')} size="lg" centered>
      <ImportJobPanel
        source={source}
        format={
          <>
            {t('participants.importFormat')}{' '}
            <Code>user_id, salutation, first_name, last_name, email, role, profession</Code>{' '}
            {t('participants.importAssignment')} <Code>season, rounds, start_date</Code>.{' '}
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={() => void saveDownload(callRaw(participantRoutes.importExample), 'participants-example.csv')}
            >
              {t('participants.example')}
            </Anchor>
          </>
        }
        fileLabel={t('participants.file')}
        testId="participant-import-status"
      />
    </Modal>
  );
}
