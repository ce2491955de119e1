import { Anchor, Group } from '@mantine/core';
import { Link } from '../lib/screen-router';
import { useTranslation } from '../lib/i18n';

/** The legal and support pages, linked from the foot of every side of the app. */
export function SiteFooter() {
  const { t } = useTranslation();
  return (
    <Group component="footer" justify="center" gap="lg" py="md" aria-label={t('sitePages.footer')}>
      <Anchor component={Link} to="/privacy-policy" size="sm" c="dimmed">
        {t('sitePages.privacyPolicy')}
      </Anchor>
      <Anchor component={Link} to="/terms-of-use" size="sm" c="dimmed">
        {t('sitePages.termsOfUse')}
      </Anchor>
      <Anchor component={Link} to="/support" size="sm" c="dimmed">
        {t('sitePages.support')}
      </Anchor>
    </Group>
  );
}
