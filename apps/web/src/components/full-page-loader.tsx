import { Center, Loader } from '@mantine/core';
import { useTranslation } from '../lib/i18n';

export function FullPageLoader() {
  const { t } = useTranslation();
  return (
    <Center h="100vh" aria-busy="true">
      <Loader aria-label={t('app.loading')} />
    </Center>
  );
}
