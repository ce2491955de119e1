import { useTranslation } from '../../lib/i18n';
import { MessagePage } from '../../components/message-page';

export function LoggedOutPage() {
  const { t } = useTranslation();
  return (
    <MessagePage
      title={t('auth.loggedOutTitle')}
      body={t('auth.loggedOutBody')}
      action={{ label: t('auth.signInAgain'), to: '/login-landing' }}
    />
  );
}
