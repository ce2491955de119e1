import { ActionIcon, Button, Menu, Text } from '@mantine/core';
import { useTranslation } from '../../lib/i18n';
import { emailPlaceholders } from '@pss/contract';

/**
 * The contract's placeholders as a menu; picking one inserts `{name}` into a field. As an
 * icon inside a text input, or as a button above the body.
 */
export function PlaceholderMenu(props: { fieldLabel: string; onPick(name: string): void; asButton?: boolean }) {
  const { t } = useTranslation();
  const label = t('emails.insertPlaceholderInto', { field: props.fieldLabel });
  return (
    <Menu position="bottom-end" shadow="md" withinPortal returnFocus={false} width={260}>
      <Menu.Target>
        {props.asButton ? (
          <Button size="compact-sm" variant="default" aria-label={label}>
            {t('emails.insertPlaceholder')}
          </Button>
        ) : (
          <ActionIcon variant="subtle" color="gray.8" aria-label={label} title={label}>
            <span aria-hidden="true" style={{ fontFamily: 'monospace', fontWeight: 700, whiteSpace: 'nowrap' }}>
              {'{}'}
            </span>
          </ActionIcon>
        )}
      </Menu.Target>
      <Menu.Dropdown mah={320} style={{ overflowY: 'auto' }}>
        <Menu.Label>{t('emails.placeholders')}</Menu.Label>
        {emailPlaceholders.map((name) => (
          <Menu.Item key={name} onClick={() => props.onPick(name)}>
            <Text size="sm" span>
              {t(`emails.placeholderNames.${name}`)}
            </Text>{' '}
            <Text size="xs" c="dimmed" span ff="monospace">
              {`{${name}}`}
            </Text>
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
