/** A season as far as its dates go: its rounds' first and last days (`YYYY-MM-DD`). */
interface DatedSeason {
  rounds: readonly { start_date: string; end_date: string }[];
}

/**
 * The season a project's figures speak of when none is named: the one running today, else
 * the latest that has begun; a project whose seasons are all ahead, its first. The Progress
 * Dashboard opens on it, and the statistics calls answer for it when `seasonName` is left
 * out — one rule for both.
 */
export function defaultSeason<S extends DatedSeason>(seasons: readonly S[], today: string): S | undefined {
  const span = (season: S) => {
    const starts = season.rounds.map((r) => r.start_date).sort();
    const ends = season.rounds.map((r) => r.end_date).sort();
    return { start: starts[0] ?? '', end: ends[ends.length - 1] ?? '' };
  };
  const running = seasons.find((s) => {
    const { start, end } = span(s);
    return start !== '' && start <= today && today <= end;
  });
  if (running) return running;
  const byStart = [...seasons].sort((a, b) => span(a).start.localeCompare(span(b).start));
  return byStart.filter((s) => span(s).start !== '' && span(s).start <= today).pop() ?? byStart[0];
}
