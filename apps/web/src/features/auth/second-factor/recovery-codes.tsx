import { useState } from 'react';
import { Button, Checkbox, CopyButton, Group, List, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n';
import '../../../lib/i18n/second-factor';

/**
 * Recovery codes, shown once: the person copies them and says they have kept them before
 * going on (what they cannot see again should not slip past unread).
 */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone(): void }) {
  const { t } = useTranslation();
  const [saved, setSaved] = useState(false);
  return (
    <Stack>
      <Title order={2} size="h4">
        {t('mfa.codesTitle')}
      </Title>
      <Text size="sm">{t('mfa.codesIntro')}</Text>
      <List aria-label={t('mfa.codesListLabel')} listStyleType="none" ff="monospace" data-testid="recovery-codes">
        {codes.map((code) => (
          <List.Item key={code}>{code}</List.Item>
        ))}
      </List>
      <Group>
        <CopyButton value={codes.join('\n')}>
          {({ copied, copy }) => (
            <Button variant="default" size="xs" onClick={copy}>
              {copied ? t('mfa.copied') : t('mfa.copyCodes')}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Checkbox
        label={t('mfa.codesSaved')}
        checked={saved}
        onChange={(event) => setSaved(event.currentTarget.checked)}
      />
      <Button disabled={!saved} onClick={onDone}>
        {t('mfa.continue')}
      </Button>
    </Stack>
  );
}
