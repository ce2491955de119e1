import { useTranslation } from '../../lib/i18n';
import type { ProjectSummary } from '@pss/contract';
import { StatusBadge } from '../../components/status-badge';

const colors = { READY: 'teal', NOT_READY: 'red', NO_USERS: 'gray' } as const;

/** Whether a project's participants are ready: all assigned, some not, or none yet. */
export function DataStatusBadge({ status }: { status: ProjectSummary['data_status'] }) {
  const { t } = useTranslation();
  return (
    <StatusBadge color={colors[status]} data-testid="data-status">
      {t(`projects.dataStatus.${status}`)}
    </StatusBadge>
  );
}
