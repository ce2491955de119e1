import { Fragment, useState } from 'react';
import { Button, Menu } from '@mantine/core';
import { useSearchParams } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import { participantProgressValues, reportFormats, surveyTemplateTypes, type ReportFormat } from '@pss/contract';
import { errorMessage } from '../../lib/api-error';
import { toastError } from '../../lib/toasts';
import { downloadReport, reportKindsOffered, type ReportRequest } from './reports-api';

/**
 * The reports of the chosen season, CSV or XLSX. The participants' report follows the
 * participant table's search and progress filter (a subset when a progress is chosen).
 */
export function ReportMenu(props: { projectId: string; seasonName: string }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [busy, setBusy] = useState(false);
  const onParticipants = params.get('view') === 'participants';
  const search = onParticipants ? params.get('search')?.trim() || undefined : undefined;
  const progress = onParticipants ? participantProgressValues.find((p) => p === params.get('progress')) : undefined;

  async function download(report: ReportRequest['report'], format: ReportFormat) {
    setBusy(true);
    try {
      await downloadReport({
        projectId: props.projectId,
        seasonName: props.seasonName,
        report,
        format,
        search,
        progress,
      });
    } catch (error) {
      toastError(errorMessage(error, t));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="default" loading={busy}>
          {t('progress.download')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {reportFormats.map((format, i) => (
          <Fragment key={format}>
            {i > 0 && <Menu.Divider />}
            <Menu.Label>{t(`progress.downloadFormat.${format}`)}</Menu.Label>
            {reportKindsOffered.map((report) => (
              <Menu.Item key={report} onClick={() => void download(report, format)}>
                {t('progress.reportItem', {
                  report: t(`progress.reports.${report}`),
                  format: t(`progress.downloadFormatShort.${format}`),
                })}
              </Menu.Item>
            ))}
            {/* The project's survey responses, one report per survey type (all seasons). */}
            {surveyTemplateTypes.map((surveyType) => (
              <Menu.Item key={surveyType} onClick={() => void download({ surveyType }, format)}>
                {t('progress.surveyResponsesItem', {
                  type: t(`progress.surveyTypes.${surveyType}`),
                  format: t(`progress.downloadFormatShort.${format}`),
                })}
              </Menu.Item>
            ))}
          </Fragment>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
