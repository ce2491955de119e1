import { Alert, List } from '@mantine/core';
import { warningTitle } from '../../lib/alert-contrast';
import { useTranslation } from '../../lib/i18n';

/**
 * The placeholders the server found would come out empty (a `{phone}` with no support phone
 * set, a `{round_end_date}` in an email that speaks of no round), each with why: shown by
 * the editor under its preview and by the dry run for each email going that day.
 */
export function PlaceholderWarnings(props: {
  warnings: { placeholder: string; message: string; email_name?: string }[];
  title: string;
}) {
  const { t } = useTranslation();
  if (!props.warnings.length) return null;
  return (
    <Alert color="yellow" title={props.title} data-testid="placeholder-warnings" styles={warningTitle}>
      <List size="sm" spacing={2}>
        {props.warnings.map((w) => (
          <List.Item key={`${w.email_name ?? ''}${w.placeholder}`}>
            {w.email_name ? t('emails.warningIn', { name: w.email_name, message: w.message }) : w.message}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
