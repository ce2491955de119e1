import { useTranslation } from '../../lib/i18n';
import '../../lib/i18n/account-pages';
import { MessagePage } from '../../components/message-page';

export function LoggedOutPage() {
  const { t } = useTranslation();
  return (
    <MessagePage
      title={t('signedOut.title')}
      body={t('signedOut.body')}
      action={{ label: t('auth.signInAgain'), to: '/login-landing' }}
    />
  );
}
