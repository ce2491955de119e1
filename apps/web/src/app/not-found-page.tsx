import { useTranslation } from '../lib/i18n';
import { MessagePage } from '../components/message-page';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <MessagePage
      title={t('notFound.title')}
      body={t('notFound.body')}
      action={{ label: t('notFound.back'), to: '/' }}
    />
  );
}
