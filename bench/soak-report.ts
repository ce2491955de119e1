/**
 * The soak's figures (bench/soak.ts): memory per process per minute, p95 per call per ten
 * minutes, 5xx, and the goal's verdicts; and a plot of memory over time as an SVG, for
 * docs/benchmarks.md.
 */
import type { CallRecord } from './soak-traffic.js';

export interface MemorySample {
  minute: number;
  process: string;
  rssMb: number;
  heapMb: number;
}

const BUCKET_MS = 10 * 60_000;

function p95(values: number[]): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(0.95 * sorted.length))]!;
}

/** p95 (ms) of each call in each ten-minute bucket, and how many calls it counts. */
export function p95ByBucket(
  calls: CallRecord[],
  minutes: number,
): { name: string; buckets: { p95: number; n: number }[] }[] {
  const buckets = Math.max(1, Math.ceil((minutes * 60_000) / BUCKET_MS));
  // A call started in the last moments (the lanes finishing) counts in the last bucket.
  const bucketOf = (c: CallRecord) => Math.min(buckets - 1, Math.floor(c.at / BUCKET_MS));
  const names = [...new Set(calls.map((c) => c.name))].sort();
  return names.map((name) => ({
    name,
    buckets: Array.from({ length: buckets }, (_, b) => {
      const inBucket = calls.filter((c) => c.name === name && bucketOf(c) === b).map((c) => c.ms);
      return { p95: Math.round(p95(inBucket)), n: inBucket.length };
    }),
  }));
}

/**
 * The issue's memory goal: each process's mean RSS over the last ten minutes within 10 % of
 * its mean over the second ten (the first ten are warm-up). Shorter runs compare their last
 * and second quarters instead, and say so.
 */
export function memoryVerdict(samples: MemorySample[], minutes: number) {
  const window = minutes >= 30 ? 10 : Math.max(1, Math.floor(minutes / 4));
  return [...new Set(samples.map((s) => s.process))].map((process) => {
    const mine = samples.filter((s) => s.process === process);
    const mean = (from: number, to: number) => {
      const inside = mine.filter((s) => s.minute >= from && s.minute < to).map((s) => s.rssMb);
      return inside.reduce((a, b) => a + b, 0) / Math.max(1, inside.length);
    };
    const second = mean(window, 2 * window);
    const last = mean(minutes - window, minutes + 1);
    return { process, window, secondMb: Math.round(second), lastMb: Math.round(last), change: last / second - 1 };
  });
}

/** A line chart of RSS and heap per process over the minutes (plain SVG, no library). */
export function memoryPlot(samples: MemorySample[], title: string): string {
  const width = 720;
  const height = 320;
  const pad = { left: 56, right: 160, top: 32, bottom: 40 };
  const maxMinute = Math.max(1, ...samples.map((s) => s.minute));
  const maxMb = Math.ceil(Math.max(64, ...samples.map((s) => s.rssMb)) / 64) * 64;
  const x = (minute: number) => pad.left + (minute / maxMinute) * (width - pad.left - pad.right);
  const y = (mb: number) => height - pad.bottom - (mb / maxMb) * (height - pad.top - pad.bottom);
  const colours = ['#1c7ed6', '#e8590c', '#2f9e44', '#9c36b5'];
  const series: string[] = [];
  const legend: string[] = [];
  const processes = [...new Set(samples.map((s) => s.process))];
  processes.forEach((process, i) => {
    for (const [kind, dash] of [
      ['rssMb', ''],
      ['heapMb', ' stroke-dasharray="5 4"'],
    ] as const) {
      const points = samples
        .filter((s) => s.process === process)
        .map((s) => `${x(s.minute).toFixed(1)},${y(s[kind]).toFixed(1)}`)
        .join(' ');
      const colour = colours[i % colours.length]!;
      series.push(`<polyline fill="none" stroke="${colour}" stroke-width="2"${dash} points="${points}"/>`);
      const row = legend.length;
      const ly = pad.top + 18 * row;
      legend.push(
        `<line x1="${width - pad.right + 12}" y1="${ly}" x2="${width - pad.right + 36}" y2="${ly}" stroke="${colour}" stroke-width="2"${dash}/>` +
          `<text x="${width - pad.right + 42}" y="${ly + 4}">${process} ${kind === 'rssMb' ? 'RSS' : 'heap used'}</text>`,
      );
    }
  });
  const ticks: string[] = [];
  for (let mb = 0; mb <= maxMb; mb += maxMb / 4) {
    ticks.push(
      `<line x1="${pad.left}" y1="${y(mb)}" x2="${width - pad.right}" y2="${y(mb)}" stroke="#dee2e6"/>` +
        `<text x="${pad.left - 6}" y="${y(mb) + 4}" text-anchor="end">${mb}</text>`,
    );
  }
  const step = maxMinute > 30 ? 10 : maxMinute > 10 ? 5 : 1;
  for (let minute = 0; minute <= maxMinute; minute += step) {
    ticks.push(`<text x="${x(minute)}" y="${height - pad.bottom + 16}" text-anchor="middle">${minute}</text>`);
  }
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="${pad.left}" y="18" font-size="14">${title}</text>`,
    ...ticks,
    `<text x="${(pad.left + width - pad.right) / 2}" y="${height - 6}" text-anchor="middle">minutes</text>`,
    `<text x="14" y="${(pad.top + height - pad.bottom) / 2}" transform="rotate(-90 14 ${(pad.top + height - pad.bottom) / 2})" text-anchor="middle">MB</text>`,
    ...series,
    ...legend,
    '</svg>',
  ].join('\n');
}

/** The figures as Markdown, ready for docs/benchmarks.md. */
export function soakMarkdown(input: {
  minutes: number;
  calls: CallRecord[];
  samples: MemorySample[];
  lost: Record<string, number>;
}): string {
  const table = p95ByBucket(input.calls, input.minutes);
  const bucketCount = table[0]?.buckets.length ?? 0;
  const headers = Array.from(
    { length: bucketCount },
    (_, b) => `${b * 10}–${Math.min(input.minutes, b * 10 + 10)} min`,
  );
  const lines = [
    `| call | calls | ${headers.join(' | ')} |`,
    `|---|---|${headers.map(() => '---').join('|')}|`,
    ...table.map(
      (row) =>
        `| ${row.name} | ${row.buckets.reduce((n, b) => n + b.n, 0)} | ${row.buckets.map((b) => (b.n ? `${b.p95}` : '–')).join(' | ')} |`,
    ),
    '',
    '| process | window | mean RSS, second window | mean RSS, last window | change |',
    '|---|---|---|---|---|',
    ...memoryVerdict(input.samples, input.minutes).map(
      (v) =>
        `| ${v.process} | ${v.window} min | ${v.secondMb} MB | ${v.lastMb} MB | ${(v.change * 100).toFixed(1)} % |`,
    ),
    '',
    `5xx: ${input.calls.filter((c) => c.status >= 500).length}; no answer: ${input.calls.filter((c) => c.status === 0).length}; ` +
      `calls: ${input.calls.length}; lost: ${Object.entries(input.lost)
        .map(([what, n]) => `${what} ${n}`)
        .join(', ')}`,
  ];
  return lines.join('\n');
}
