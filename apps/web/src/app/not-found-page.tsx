import { useTranslation } from 'react-i18next';
import { MessagePage } from '../features/auth/message-page';

export function NotFoundPage() {
  const { t } = useTranslation();
  return <MessagePage title={t('notFound.title')} body={t('notFound.body')} action={{ label: t('notFound.back'), to: '/' }} />;
}
