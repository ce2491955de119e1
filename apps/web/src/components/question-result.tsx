import { Badge, Group, List, Paper, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useTranslation } from '../lib/i18n';
import type { QuestionFeedback } from '@pss/contract';
import '../lib/i18n/case';

const markColor = { NECESSARY: 'teal', APPROPRIATE: 'blue', UNNECESSARY: 'red' } as const;

/** One answered question with its feedback: what was answered, what was missed or wrongly chosen. */
export function QuestionResult(props: { index: number; question: QuestionFeedback; personalised: boolean }) {
  const { t } = useTranslation();
  const q = props.question;
  const chosen = q.choices.filter((c) => c.chosen);
  return (
    <Paper withBorder p="md" component="article" aria-label={t('common.caseView.questionN', { n: props.index + 1 })}>
      <Stack gap="xs">
        {q.grouper_name && (
          <Text size="xs" c="dimmed" tt="uppercase">
            {q.grouper_name}
          </Text>
        )}
        <Text fw={600}>
          {props.index + 1}. {q.text}
        </Text>
        <Text size="sm">
          <strong>{t('common.caseView.yourAnswer')}</strong>{' '}
          {[
            ...chosen.map((c) => c.text),
            ...(q.answer_text ? [q.answer_text] : []),
            ...(q.none_of_below ? [t('common.caseView.noneOfBelow')] : []),
          ].join('; ') || t('common.caseView.noAnswer')}
        </Text>
        {chosen.some((c) => c.tags.length > 0) && (
          // The project's answer tags of what the participant chose (Elements), beside each choice.
          <Text size="sm" data-testid="answer-tags">
            <strong>{t('common.caseView.answerTags')}</strong>{' '}
            {chosen
              .filter((c) => c.tags.length > 0)
              .map((c) => `${c.text}: ${c.tags.join(', ')}`)
              .join('; ')}
          </Text>
        )}
        {props.personalised && q.scored && (
          <Group gap={6}>
            {q.choices.map((c) => (
              // Choice names as their author wrote them ("NT-proBNP"), not upper-cased.
              <Badge
                key={c.id}
                variant={c.chosen ? 'filled' : 'outline'}
                color={c.marked_as ? `${markColor[c.marked_as]}.9` : 'gray.9'}
                tt="none"
                data-chosen={c.chosen}
              >
                {c.text} · {c.marked_as ? t(`common.caseView.marks.${c.marked_as}`) : '—'}
                {c.chosen && <VisuallyHidden> {t('common.caseView.chosen')}</VisuallyHidden>}
              </Badge>
            ))}
          </Group>
        )}
        {props.personalised && q.necessary_missed.length > 0 && (
          <div data-testid="necessary-missed">
            <Text size="sm" fw={600} c="red.9">
              {t('common.caseView.necessaryMissed')}
            </Text>
            <List size="sm">
              {q.necessary_missed.map((text) => (
                <List.Item key={text}>{text}</List.Item>
              ))}
            </List>
          </div>
        )}
        {props.personalised && q.unnecessary_chosen.length > 0 && (
          <div data-testid="unnecessary-chosen">
            <Text size="sm" fw={600} c="red.9">
              {t('common.caseView.unnecessaryChosen')}
            </Text>
            <List size="sm">
              {q.unnecessary_chosen.map((text) => (
                <List.Item key={text}>{text}</List.Item>
              ))}
            </List>
          </div>
        )}
        {props.personalised && q.scored && !q.necessary_missed.length && !q.unnecessary_chosen.length && (
          <Text size="sm" c="teal.9">
            {t('common.caseView.allRight')}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * Says what a choice's chip means, once above the questions: filled when it was chosen,
 * outlined when not, each with how the case's author marked it. Shown where the chips are.
 */
export function ChoiceLegend(props: { questions: QuestionFeedback[]; personalised: boolean }) {
  const { t } = useTranslation();
  if (!props.personalised || !props.questions.some((q) => q.scored)) return null;
  return (
    <Group gap="xs" data-testid="choice-legend">
      <Text size="sm">{t('common.caseView.legend')}</Text>
      <Badge variant="filled" color="gray.9" tt="none">
        {t('common.caseView.legendChosen')}
      </Badge>
      <Badge variant="outline" color="gray.9" tt="none">
        {t('common.caseView.legendNotChosen')}
      </Badge>
    </Group>
  );
}
