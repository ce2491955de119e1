import { useSearchParams } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import '../../lib/i18n/account-pages';
import { isErrorCode } from '@pss/contract';
import { MessagePage } from '../../components/message-page';

/**
 * Where a refused sign-in ends (`?reason=` a catalogue code: an identity provider's
 * account that no administrator here has, an unverified email…), and where a lost
 * session or NEW_LOGIN_ENABLED's sign-out leads. A known reason is said in its words.
 */
export function UnauthorizedPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const reason = params.get('reason');
  return (
    <MessagePage
      title={t('notAuthorized.title')}
      body={isErrorCode(reason) ? t(`errors.${reason}`) : t('notAuthorized.body')}
      action={{ label: t('auth.signInAgain'), to: '/login-landing' }}
    />
  );
}
