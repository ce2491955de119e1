/** A rate from 0 to 1 as people read it: "42%", "7.5%" below ten. */
export function formatRate(rate: number): string {
  const percent = rate * 100;
  if (percent > 0 && percent < 10) return `${percent.toFixed(1).replace(/\.0$/, '')}%`;
  return `${Math.round(percent)}%`;
}

/** A change of a rate in percentage points: "+12 pts", "−3 pts", "0 pts"; "—" without two rounds. */
export function formatChange(change: number | null): string {
  if (change === null) return '—';
  // Rounded away from zero alike on both sides (Math.round takes −12.5 to −12).
  const points = Math.sign(change) * Math.round(Math.abs(change * 100));
  if (points === 0) return '0 pts';
  return `${points > 0 ? '+' : '−'}${Math.abs(points)} pts`;
}

/** A score 0–100, or "—" before anyone completed. */
export function formatScore(score: number | null): string {
  return score === null ? '—' : `${Math.round(score)}`;
}

/** A discrimination (−1 to 1) to two places, with a true minus sign: "0.23", "−0.43"; a hair below 0 is "0.00". */
export function formatDiscrimination(r: number): string {
  const fixed = r.toFixed(2);
  return fixed === '-0.00' ? '0.00' : fixed.replace('-', '−');
}
