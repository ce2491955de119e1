import { emailTypeDescriptors } from '@pss/contract';
import type { SeasonDay } from './season-simulation.js';

/** The emails a season sends by itself, in the Emails screen's order, with the table's short names and the chart's colours. */
const emailColumns = emailTypeDescriptors.flatMap((d) => (d.simulator ? [{ type: d.type, ...d.simulator }] : []));

const percent = (rate: number) => `${(100 * rate).toFixed(1)} %`;

/** The season day by day as a Markdown table: emails by type, cases started and completed, participation and completion. */
export function dayTable(days: SeasonDay[]): string {
  const header = [
    'day',
    'round',
    ...emailColumns.map((c) => c.label),
    'other',
    'bounced',
    'started',
    'completed',
    'participation',
    'completion',
  ];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const d of days) {
    const known = new Set<string>(emailColumns.map((c) => c.type));
    const other = Object.entries(d.emails)
      .filter(([type]) => !known.has(type))
      .reduce((sum, [, n]) => sum + n, 0);
    const cells = [
      d.date,
      d.round ?? '',
      ...emailColumns.map((c) => d.emails[c.type] ?? 0),
      other,
      d.bounced,
      d.started,
      d.completed,
      percent(d.participation),
      percent(d.completion),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  const total = (pick: (d: SeasonDay) => number) => days.reduce((sum, d) => sum + pick(d), 0);
  const last = days[days.length - 1];
  lines.push(
    `| **all** | | ${emailColumns.map((c) => total((d) => d.emails[c.type] ?? 0)).join(' | ')} | | ${total((d) => d.bounced)} | ${total((d) => d.started)} | ${total((d) => d.completed)} | ${last ? percent(last.participation) : ''} | ${last ? percent(last.completion) : ''} |`,
  );
  return lines.join('\n');
}

/**
 * The season as an SVG: above, the emails sent each day stacked by type; below, the cases
 * completed each day as bars, with participation and case completion as lines (0–100 %).
 * Rounds are shaded alternately.
 */
export function seasonChart(days: SeasonDay[], title: string): string {
  const width = 960;
  const left = 48;
  const right = 16;
  const plotWidth = width - left - right;
  const step = plotWidth / Math.max(1, days.length);
  const top = { y: 40, h: 180 };
  const bottom = { y: 270, h: 180 };
  const height = bottom.y + bottom.h + 60;
  const x = (i: number) => left + i * step;
  const maxEmails = Math.max(1, ...days.map((d) => Object.values(d.emails).reduce((a, b) => a + b, 0)));
  const maxCompleted = Math.max(1, ...days.map((d) => d.completed));
  const parts: string[] = [];
  const text = (tx: number, ty: number, s: string, extra = '') =>
    parts.push(`<text x="${tx.toFixed(1)}" y="${ty.toFixed(1)}" font-size="11" ${extra}>${escape(s)}</text>`);

  days.forEach((d, i) => {
    if (d.round && d.round % 2 === 0) {
      for (const panel of [top, bottom]) {
        parts.push(
          `<rect x="${x(i).toFixed(1)}" y="${panel.y}" width="${step.toFixed(2)}" height="${panel.h}" fill="#f2f2f2"/>`,
        );
      }
    }
    if (d.round && (i === 0 || days[i - 1]!.round !== d.round))
      text(x(i) + 2, top.y - 6, `Round ${d.round}`, 'fill="#555"');
  });

  days.forEach((d, i) => {
    let stacked = 0;
    for (const c of emailColumns) {
      const n = d.emails[c.type] ?? 0;
      if (!n) continue;
      const h = (n / maxEmails) * top.h;
      stacked += h;
      parts.push(
        `<rect x="${(x(i) + 0.5).toFixed(1)}" y="${(top.y + top.h - stacked).toFixed(1)}" width="${Math.max(1, step - 1).toFixed(2)}" height="${h.toFixed(1)}" fill="${c.colour}"><title>${d.date}: ${n} ${c.label}</title></rect>`,
      );
    }
    const h = (d.completed / maxCompleted) * bottom.h;
    if (h)
      parts.push(
        `<rect x="${(x(i) + 0.5).toFixed(1)}" y="${(bottom.y + bottom.h - h).toFixed(1)}" width="${Math.max(1, step - 1).toFixed(2)}" height="${h.toFixed(1)}" fill="#9ecae1"><title>${d.date}: ${d.completed} cases completed</title></rect>`,
      );
  });

  const line = (pick: (d: SeasonDay) => number, colour: string) =>
    parts.push(
      `<polyline fill="none" stroke="${colour}" stroke-width="2" points="${days
        .map((d, i) => `${(x(i) + step / 2).toFixed(1)},${(bottom.y + bottom.h - pick(d) * bottom.h).toFixed(1)}`)
        .join(' ')}"/>`,
    );
  line((d) => d.participation, '#2ca02c');
  line((d) => d.completion, '#d62728');

  for (const panel of [top, bottom]) {
    parts.push(
      `<line x1="${left}" y1="${panel.y + panel.h}" x2="${width - right}" y2="${panel.y + panel.h}" stroke="#333"/>`,
    );
    parts.push(`<line x1="${left}" y1="${panel.y}" x2="${left}" y2="${panel.y + panel.h}" stroke="#333"/>`);
  }
  text(4, top.y + 10, String(maxEmails));
  text(4, top.y + top.h, '0');
  text(left, top.y + top.h + 14, 'Emails sent per day, by type', 'fill="#333"');
  text(4, bottom.y + 10, '100 %');
  text(4, bottom.y + bottom.h, '0');
  text(
    left,
    bottom.y + bottom.h + 14,
    `Cases completed per day (bars, up to ${maxCompleted}); participation (green) and case completion (red)`,
    'fill="#333"',
  );
  days.forEach((d, i) => {
    if (i % 7 === 0) text(x(i), bottom.y + bottom.h + 30, d.date.slice(5), 'fill="#555"');
  });
  emailColumns.forEach((c, i) => {
    const lx = left + i * 120;
    parts.push(`<rect x="${lx}" y="${height - 18}" width="10" height="10" fill="${c.colour}"/>`);
    text(lx + 14, height - 9, c.label);
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">
<rect width="100%" height="100%" fill="#fff"/>
<text x="${left}" y="18" font-size="14" font-weight="bold">${escape(`A simulated season: ${title}`)}</text>
${parts.join('\n')}
</svg>
`;
}

function escape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
