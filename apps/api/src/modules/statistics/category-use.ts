import type { CategoryUse } from '@pss/contract';

/** One category's counts in one round, as SQL answers them (statistics.repository.ts `categoryUse`). */
export interface CategoryRoundCounts {
  category_id: string | null;
  category_name: string | null;
  round_number: number;
  necessary_offered: number;
  necessary_missed: number;
  unnecessary_offered: number;
  unnecessary_chosen: number;
}

const rate = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);

function withRates(c: Omit<CategoryRoundCounts, 'category_id' | 'category_name' | 'round_number'>) {
  return {
    necessary_offered: c.necessary_offered,
    necessary_missed: c.necessary_missed,
    under_use_rate: rate(c.necessary_missed, c.necessary_offered),
    unnecessary_offered: c.unnecessary_offered,
    unnecessary_chosen: c.unnecessary_chosen,
    over_use_rate: rate(c.unnecessary_chosen, c.unnecessary_offered),
  };
}

/**
 * Groups the counted rows by category: the season's totals, each round's, and the change
 * of each rate from the first round to the last with completed cases. Only rates are
 * worked out here; every count comes from SQL.
 */
export function summariseCategoryUse(rows: CategoryRoundCounts[]): CategoryUse[] {
  const byCategory = new Map<string, CategoryRoundCounts[]>();
  for (const row of rows) {
    const key = row.category_id ?? '';
    byCategory.set(key, [...(byCategory.get(key) ?? []), row]);
  }
  return [...byCategory.values()].map((rounds) => {
    const total = rounds.reduce(
      (sum, r) => ({
        necessary_offered: sum.necessary_offered + r.necessary_offered,
        necessary_missed: sum.necessary_missed + r.necessary_missed,
        unnecessary_offered: sum.unnecessary_offered + r.unnecessary_offered,
        unnecessary_chosen: sum.unnecessary_chosen + r.unnecessary_chosen,
      }),
      { necessary_offered: 0, necessary_missed: 0, unnecessary_offered: 0, unnecessary_chosen: 0 },
    );
    const perRound = rounds.map((r) => ({ round_number: r.round_number, ...withRates(r) }));
    const first = perRound[0]!;
    const last = perRound[perRound.length - 1]!;
    const changes = perRound.length >= 2;
    return {
      category_id: rounds[0]!.category_id,
      category_name: rounds[0]!.category_name ?? 'No category',
      ...withRates(total),
      rounds: perRound,
      under_use_change: changes ? last.under_use_rate - first.under_use_rate : null,
      over_use_change: changes ? last.over_use_rate - first.over_use_rate : null,
    };
  });
}
