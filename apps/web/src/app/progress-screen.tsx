import { ReportMenu } from '../features/reports/report-menu';
import { ProgressPage } from '../features/statistics/progress-page';

/** The Progress screen: the season's figures (features/statistics) with its reports to download (features/reports). */
export function ProgressScreen() {
  return <ProgressPage reportMenu={ReportMenu} />;
}
