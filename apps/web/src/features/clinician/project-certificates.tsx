import { useState } from 'react';
import { Anchor, Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { ParticipantCertificate } from '@pss/contract';
import { useTranslation } from '../../lib/i18n';
import '../../lib/i18n/certificate';
import { formatDate } from '../../lib/format';
import { toastError } from '../../lib/toasts';
import { downloadCertificate } from './clinician-api';
import '../../lib/i18n/participant';

/** The CME certificates a participant earned in one project: each to download, and its public check. */
export function ProjectCertificates({ certificates }: { certificates: ParticipantCertificate[] }) {
  return (
    <Stack gap="xs" data-testid="certificates">
      {certificates.map((certificate) => (
        <CertificateRow key={certificate.id} certificate={certificate} />
      ))}
    </Stack>
  );
}

function CertificateRow({ certificate }: { certificate: ParticipantCertificate }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const revoked = certificate.revoked_at !== null;
  const credits = t('participantPages.creditCount', { count: certificate.credits });

  async function download() {
    setBusy(true);
    try {
      await downloadCertificate(certificate.id, certificate.code);
    } catch {
      toastError(t('participantCertificates.failed'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Paper withBorder p="sm" bg={revoked ? 'gray.0' : 'teal.0'}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <div>
          <Text fw={600} size="sm">
            {credits}
          </Text>
          <Text size="sm">
            {revoked
              ? t('participantCertificates.revoked', {
                  date: formatDate(certificate.revoked_at),
                  code: certificate.code,
                })
              : t('participantCertificates.earned', {
                  date: formatDate(certificate.issued_at),
                  code: certificate.code,
                })}
          </Text>
          <Anchor href={certificate.verify_url} size="sm" target="_blank" rel="noopener">
            {t('participantCertificates.check')} {t('participantPages.opensInNewTab')}
          </Anchor>
        </div>
        <Button
          variant="light"
          loading={busy}
          onClick={() => void download()}
          aria-label={t('participantCertificates.downloadOf', { credits })}
        >
          {t('participantCertificates.download')}
        </Button>
      </Group>
    </Paper>
  );
}
