import { useMemo } from 'react';
import { Code } from '@mantine/core';
import { useTranslation } from '../../lib/i18n';
import { ImportJobPanel } from '../../components/import-job-panel';
import { elementsImports, type ElementsHome, type ElementsKind } from './elements-api';

/** Uploads one kind of elements file and follows its import: progress, then done or the rejected rows. */
export function ElementsUpload(props: { home: ElementsHome; kind: ElementsKind; columns: string }) {
  const { t } = useTranslation();
  const { kind: homeKind, id } = props.home;
  const source = useMemo(() => elementsImports({ kind: homeKind, id }, props.kind), [homeKind, id, props.kind]);
  const label = t(`elements.kinds.${props.kind}`);
  return (
    <ImportJobPanel
      source={source}
      format={
        <>
          {t('elements.format')} <Code>{props.columns}</Code>
        </>
      }
      fileLabel={t('elements.file', { kind: label })}
      uploadLabel={t('elements.upload', { kind: label })}
      testId={`elements-import-${props.kind}`}
    />
  );
}
