import { Group, Stack, Text, Title } from '@mantine/core';
import { StatusBadge } from '../../../components/status-badge';
import { useQuery } from '@tanstack/react-query';
import { negativeDiscriminationLimit, negativeDiscriminationRule, type ItemAnalysisRow } from '@pss/contract';
import { useTranslation } from '../../../lib/i18n';
import { itemAnalysisQueryOptions } from '../statistics-api';
import { formatChange, formatDiscrimination, formatRate } from '../progress-format';
import { FigureTable } from './figure-table';

/** Flags that call for the author's eye in red; the rest (too easy, too hard) in amber. */
/**
 * Red where the question or a choice misleads, blue where it is only too easy or too hard.
 * Outlined in shade 9 (StatusBadge): the light variant's yellow measured 2.7:1.
 */
/** A flag's words whole: the column takes their width rather than cutting them off ("Negative discrim…"). */
const wholeLabel = { root: { flexShrink: 0, maxWidth: 'none' }, label: { overflow: 'visible' } } as const;

/** The numbers of the negative discrimination flag's rule, as the screen states it: the contract's, so they never drift. */
const limitAt = (attempts: number) => formatDiscrimination(negativeDiscriminationLimit(attempts)!);
const negativeRuleValues = {
  minimum: negativeDiscriminationRule.minimumAttempts,
  at20: limitAt(20),
  at30: limitAt(30),
  at100: limitAt(100),
};

const flagColor = (flag: ItemAnalysisRow['flags'][number]) =>
  flag === 'NEGATIVE_DISCRIMINATION' || flag === 'OFTEN_CHOSEN' ? 'red' : 'blue';

/**
 * The season's item analysis (issue #37): each scored question of its published cases with
 * its difficulty and discrimination, then its choices with how often each was picked, and
 * the flags an author should look at. Loaded on demand, on its own tab of the dashboard.
 */
export function ItemAnalysisTable(props: {
  projectId: string;
  seasonName: string;
  /** One case's rows only (Case Setup's tab), its questions named without the case. */
  caseId?: string;
}) {
  const { t } = useTranslation();
  const query = useQuery(itemAnalysisQueryOptions(props.projectId, props.seasonName));
  const items = props.caseId ? query.data?.items.filter((r) => r.case_id === props.caseId) : query.data?.items;
  const columns = [
    t('progress.itemColumn'),
    t('progress.markedAs'),
    t('progress.attempts'),
    t('progress.chosen'),
    t('progress.difficulty'),
    t('progress.discrimination'),
    t('progress.change'),
    t('progress.flags'),
  ];
  const empty = items && items.every((r) => r.attempts === 0);
  const emptyText = props.caseId ? t('progress.itemsCaseEmpty') : t('progress.itemsEmpty');
  const label = (r: ItemAnalysisRow) =>
    props.caseId
      ? t('progress.questionOfCase', { position: r.question_position, text: r.question_text })
      : t('progress.questionLabel', { case: r.case_name, position: r.question_position, text: r.question_text });
  const isQuestion = (r: ItemAnalysisRow) => r.choice_id === null;
  return (
    <Stack gap="xs" component="section" aria-labelledby="item-analysis-title">
      <div>
        <Title order={4} id="item-analysis-title">
          {t('progress.itemsTitle')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('progress.itemsHelp')}
        </Text>
        <Text size="sm" c="dimmed" data-testid="negative-discrimination-rule">
          {t('progress.itemsNegativeRule', negativeRuleValues)}
        </Text>
      </div>
      <FigureTable
        caption={t('progress.itemsTitle')}
        columns={columns}
        rows={items}
        rowKey={(r) => `${r.case_id}:${r.question_id}:${r.choice_id ?? ''}`}
        cells={(r) => [
          isQuestion(r) ? (
            <Text fw={600} size="sm">
              {label(r)}
            </Text>
          ) : (
            <Text size="sm" pl="lg">
              {r.choice_text}
            </Text>
          ),
          r.marked_as ? t(`progress.markedAsValue.${r.marked_as}`) : '',
          isQuestion(r) ? r.attempts : '',
          r.chosen_rate === null ? '' : `${formatRate(r.chosen_rate)} (${r.chosen})`,
          r.difficulty === null ? '' : formatRate(r.difficulty),
          // A question without variance on either side (everyone alike) has no discrimination.
          isQuestion(r) ? (r.discrimination === null ? '–' : formatDiscrimination(r.discrimination)) : '',
          // Since the earliest round a copy of the case was answered in; nothing to compare: blank.
          r.change === null ? '' : formatChange(r.change),
          <Group gap={4} justify="flex-end" wrap="wrap">
            {r.flags.map((flag) => (
              <StatusBadge key={flag} color={flagColor(flag)} size="sm" styles={wholeLabel}>
                {t(`progress.flag.${flag}`)}
              </StatusBadge>
            ))}
          </Group>,
        ]}
        error={query.error}
        onRetry={() => void query.refetch()}
        empty={empty ? emptyText : null}
        minWidth={840}
        testId="item-analysis"
      />
    </Stack>
  );
}
