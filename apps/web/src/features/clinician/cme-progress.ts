import type { DashboardProject } from '@pss/contract';
import type { TFunction } from '../../lib/i18n';
import '../../lib/i18n/participant';

type DashboardCme = DashboardProject['cmes'][number];

/**
 * What a participant reads of a CME credit: the cases done of those it needs, and the
 * credits it gives, each count with its plural ("1 of 1 case completed for 1 credit").
 */
export function cmeProgressText(t: TFunction, cme: DashboardCme): string {
  return t('participantPages.cmeProgress', {
    done: Math.min(cme.completed_cases, cme.min_cases),
    count: cme.min_cases,
    credits: t('participantPages.creditCount', { count: cme.credits }),
  });
}

/** The progress bar's name: towards how many credits. */
export function cmeProgressLabel(t: TFunction, cme: DashboardCme): string {
  return t('participantPages.cmeProgressLabel', { credits: t('participantPages.creditCount', { count: cme.credits }) });
}
