import { ActionIcon, Button, Card, Group, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from '../../lib/i18n';
import type { UseFormReturnType } from '@mantine/form';
import type { SeasonInput } from '@pss/contract';

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

/** Seasons with Rounds 1–4, each with start and end dates, in a form that has them; errors show where they are. */
export function SeasonsEditor({ form }: { form: UseFormReturnType<{ seasons: SeasonDraft[] }> }) {
  const { t } = useTranslation();
  const value = form.values.seasons;
  const errors = form.errors;

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
                {...form.getInputProps(`seasons.${s}.name`)}
                style={{ flex: 1 }}
                required
              />
              <Button variant="subtle" color="red" onClick={() => form.removeListItem('seasons', s)}>
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
                  {...form.getInputProps(`seasons.${s}.rounds.${r}.start_date`)}
                  error={errors[`seasons.${s}.rounds.${r}.start_date`] ?? errors[`seasons.${s}.rounds.${r}.number`]}
                  w={190}
                />
                <TextInput
                  type="date"
                  label={t('projects.endDate')}
                  aria-label={t('projects.roundEnd', { season: season.name || s + 1, n: round.number })}
                  {...form.getInputProps(`seasons.${s}.rounds.${r}.end_date`)}
                  w={190}
                />
                {r === season.rounds.length - 1 && season.rounds.length > 1 && (
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    mt={28}
                    aria-label={t('projects.removeRound', { n: round.number })}
                    onClick={() => form.removeListItem(`seasons.${s}.rounds`, r)}
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
                  form.insertListItem(`seasons.${s}.rounds`, nextRound(season.rounds.at(-1), season.rounds.length + 1))
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
        onClick={() => form.insertListItem('seasons', { name: '', rounds: [nextRound(undefined, 1)] })}
      >
        {t('projects.addSeason')}
      </Button>
    </Stack>
  );
}
