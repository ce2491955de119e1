import { ActionIcon, Button, Card, Group, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SeasonInput } from '@pss/contract';
import type { FieldErrors } from '../../lib/form-errors';

export type SeasonDraft = SeasonInput;

/** A new round starts the day after the previous one ends and lasts two weeks. */
function nextRound(previous: SeasonDraft['rounds'][number] | undefined, number: number): SeasonDraft['rounds'][number] {
  const start = previous?.end_date ? addDays(previous.end_date, 1) : '';
  return { number, start_date: start, end_date: start ? addDays(start, 13) : '' };
}

function addDays(isoDate: string, days: number): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return '';
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Seasons with Rounds 1–4, each with start and end dates; errors show where they are. */
export function SeasonsEditor(props: {
  value: SeasonDraft[];
  onChange(value: SeasonDraft[]): void;
  errors: FieldErrors;
}) {
  const { t } = useTranslation();
  const { value, onChange, errors } = props;

  const updateSeason = (index: number, season: SeasonDraft) =>
    onChange(value.map((s, i) => (i === index ? season : s)));

  return (
    <Stack gap="sm">
      <Text fw={500} size="sm">
        {t('projects.seasons')}
      </Text>
      {value.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('projects.noSeasons')}
        </Text>
      )}
      {value.map((season, s) => (
        <Card key={season.id ?? `new-${s}`} withBorder padding="sm" radius="md" data-testid="season">
          <Stack gap="xs">
            <Group align="flex-end" wrap="nowrap">
              <TextInput
                label={t('projects.seasonName')}
                value={season.name}
                onChange={(e) => updateSeason(s, { ...season, name: e.currentTarget.value })}
                error={errors[`seasons.${s}.name`]}
                style={{ flex: 1 }}
                required
              />
              <Button variant="subtle" color="red" onClick={() => onChange(value.filter((_, i) => i !== s))}>
                {t('projects.removeSeason')}
              </Button>
            </Group>
            {errors[`seasons.${s}.rounds`] && (
              <Text size="sm" c="red">
                {errors[`seasons.${s}.rounds`]}
              </Text>
            )}
            {season.rounds.map((round, r) => (
              <Group key={round.number} align="flex-start" wrap="wrap" gap="xs">
                <Text size="sm" fw={500} w={70} pt={30}>
                  {t('projects.roundN', { n: round.number })}
                </Text>
                <TextInput
                  type="date"
                  label={t('projects.startDate')}
                  aria-label={t('projects.roundStart', { season: season.name || s + 1, n: round.number })}
                  value={round.start_date}
                  onChange={(e) => {
                    const rounds = season.rounds.map((x, i) =>
                      i === r ? { ...x, start_date: e.currentTarget.value } : x,
                    );
                    updateSeason(s, { ...season, rounds });
                  }}
                  error={errors[`seasons.${s}.rounds.${r}.start_date`] ?? errors[`seasons.${s}.rounds.${r}.number`]}
                  w={190}
                />
                <TextInput
                  type="date"
                  label={t('projects.endDate')}
                  aria-label={t('projects.roundEnd', { season: season.name || s + 1, n: round.number })}
                  value={round.end_date}
                  onChange={(e) => {
                    const rounds = season.rounds.map((x, i) =>
                      i === r ? { ...x, end_date: e.currentTarget.value } : x,
                    );
                    updateSeason(s, { ...season, rounds });
                  }}
                  error={errors[`seasons.${s}.rounds.${r}.end_date`]}
                  w={190}
                />
                {r === season.rounds.length - 1 && season.rounds.length > 1 && (
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    mt={28}
                    aria-label={t('projects.removeRound', { n: round.number })}
                    onClick={() => updateSeason(s, { ...season, rounds: season.rounds.slice(0, -1) })}
                  >
                    ×
                  </ActionIcon>
                )}
              </Group>
            ))}
            {season.rounds.length < 4 && (
              <Button
                variant="light"
                size="xs"
                w="fit-content"
                onClick={() =>
                  updateSeason(s, {
                    ...season,
                    rounds: [...season.rounds, nextRound(season.rounds.at(-1), season.rounds.length + 1)],
                  })
                }
              >
                {t('projects.addRound')}
              </Button>
            )}
          </Stack>
        </Card>
      ))}
      <Button
        variant="default"
        w="fit-content"
        onClick={() => onChange([...value, { name: '', rounds: [nextRound(undefined, 1)] }])}
      >
        {t('projects.addSeason')}
      </Button>
    </Stack>
  );
}
