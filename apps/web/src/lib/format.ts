// Dates are written out by hand rather than with Intl.DateTimeFormat: the app's texts are
// English (lib/i18n), and building a formatter loads the browser's locale data, a cost in a
// screen's first render on a phone-class CPU (docs/benchmarks.md, "Fifth pass"). The
// output is Intl's `en-US` short form ("Mar 2, 2026", "Mar 2, 2026, 9:05 AM"), held to it by
// format.test.ts.
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function parse(iso: string | null | undefined): Date | null {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "Mar 2, 2026", in the browser's time zone. */
function localDay(date: Date): string {
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}`;
}

/** A date as people read it, in the browser's time zone: "Mar 2, 2026". */
export function formatDate(iso: string | null | undefined): string {
  const date = parse(iso);
  return date ? localDay(date) : '—';
}

/** A moment as people read it, in the browser's time zone: "Mar 2, 2026, 9:05 AM". */
export function formatDateTime(iso: string | null | undefined): string {
  const date = parse(iso);
  if (!date) return '—';
  const hours = date.getHours();
  const minutes = String(date.getMinutes()).padStart(2, '0');
  return `${localDay(date)}, ${hours % 12 || 12}:${minutes} ${hours < 12 ? 'AM' : 'PM'}`;
}

/** A calendar day sent as `YYYY-MM-DD` ("Mar 2, 2026"), the same day in every time zone. */
export function formatDay(day: string | null | undefined): string {
  if (!day || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return '—';
  const date = parse(`${day}T00:00:00Z`);
  return date ? `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}` : '—';
}

/** A file's size as people read it: "840 KB", "12.5 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;
}
