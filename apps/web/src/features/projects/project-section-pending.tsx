import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { en } from '../../lib/i18n/en';

/** A project section whose feature is not built yet: it says so and does nothing else. */
export function ProjectSectionPending({ sectionKey }: { sectionKey: keyof typeof en.projects.sections }) {
  const { t } = useTranslation();
  return (
    <Alert color="gray" title={t(`projects.sections.${sectionKey}`)}>
      {t('projects.sectionPending', { section: t(`projects.sections.${sectionKey}`) })}
    </Alert>
  );
}
