import { useTranslation } from '../../lib/i18n';
import type { CaseStatusValue } from '@pss/contract';
import { StatusBadge } from '../../components/status-badge';

const colors: Record<CaseStatusValue, string> = { DRAFT: 'gray', PUBLISHED: 'blue', ACTIVE: 'teal' };

export function CaseStatusBadge(props: { status: CaseStatusValue; size?: 'sm' | 'lg' }) {
  const { t } = useTranslation();
  return (
    <StatusBadge color={colors[props.status]} size={props.size} data-testid="case-status">
      {t(`cases.statusValue.${props.status}`)}
    </StatusBadge>
  );
}
