import type { Season } from '@pss/contract';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useTranslation } from '../../lib/i18n';

/** Today in the administrator's own calendar, as `YYYY-MM-DD` (the rounds' dates are days). */
export function localDay(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

/** The season and round a case is placed in, when that round runs on `today`; null otherwise. */
export function runningRound(
  seasons: Season[],
  placement: { season_id: string | null; round_number: number | null },
  today: string,
): { season: Season; round: number } | null {
  const season = seasons.find((s) => s.id === placement.season_id);
  const round = season?.rounds.find((r) => r.number === placement.round_number);
  if (!season || !round || round.start_date > today || round.end_date < today) return null;
  return { season, round: round.number };
}

/**
 * Asks before publishing, saying what it does. In a running round publishing cannot be undone:
 * the case is active at once (participants of the round can start it) and it can be neither
 * edited nor returned to draft, so the dialog says so; elsewhere it says the way back.
 */
export function PublishConfirm(props: {
  opened: boolean;
  seasons: Season[];
  placement: { season_id: string | null; round_number: number | null };
  busy: boolean;
  onConfirm(): void;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const running = props.opened ? runningRound(props.seasons, props.placement, localDay(new Date())) : null;
  return (
    <ConfirmDialog
      opened={props.opened}
      title={running ? t('cases.publishActiveTitle') : t('cases.publishTitle')}
      message={
        running
          ? t('cases.publishActiveMessage', { round: running.round, season: running.season.name })
          : t('cases.publishMessage')
      }
      confirmLabel={running ? t('cases.publishActiveConfirm') : t('cases.publish')}
      confirmColor="blue"
      busy={props.busy}
      onConfirm={props.onConfirm}
      onClose={props.onClose}
    />
  );
}
