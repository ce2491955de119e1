import { useTranslation } from 'react-i18next';
import { MessagePage } from '../../components/message-page';

export function UnauthorizedPage() {
  const { t } = useTranslation();
  return (
    <MessagePage
      title={t('auth.unauthorizedTitle')}
      body={t('auth.unauthorizedBody')}
      action={{ label: t('auth.signInAgain'), to: '/login-landing' }}
    />
  );
}
