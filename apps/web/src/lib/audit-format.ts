import type { AuditEvent } from '@pss/contract';

/**
 * How an event's changed fields read on screen: each field's value before and after, side by
 * side. A field holding a structure (a case's questions, a season's rounds) is opened down to
 * the parts that changed, so a one-word edit in a long case shows as that one part, not as two
 * screenfuls of JSON that differ somewhere.
 */

/** One changed value: where it is under the event's fields, and its value before and after. */
export interface ChangeRow {
  /** The field, then the keys and positions under it: `['questions', 1, 'text']`. */
  path: (string | number)[];
  before: unknown;
  after: unknown;
}

/** How deep a structure is opened; below that a part that differs is shown whole. */
const MAX_DEPTH = 6;

type Plain = Record<string, unknown>;
const isPlain = (value: unknown): value is Plain =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The same value, whatever the order of an object's keys (jsonb gives them in its own). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => sameValue(item, b[i]));
  }
  if (isPlain(a) && isPlain(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((key) => sameValue(a[key], b[key]));
  }
  return false;
}

function collect(path: ChangeRow['path'], before: unknown, after: unknown, into: ChangeRow[]): void {
  if (sameValue(before, after)) return;
  const depth = path.length;
  if (depth < MAX_DEPTH && Array.isArray(before) && Array.isArray(after)) {
    for (let i = 0; i < Math.max(before.length, after.length); i++) collect([...path, i], before[i], after[i], into);
    return;
  }
  if (depth < MAX_DEPTH && isPlain(before) && isPlain(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    for (const key of keys) collect([...path, key], before[key], after[key], into);
    return;
  }
  into.push({ path, before, after });
}

/**
 * The rows an event's changes show: one per changed value, in the order the fields came. A
 * field the event names with the same value before and after is still shown (it was named).
 */
export function changeRows(changes: AuditEvent['changes']): ChangeRow[] {
  const rows: ChangeRow[] = [];
  for (const [field, { before, after }] of Object.entries(changes)) {
    const found: ChangeRow[] = [];
    collect([field], before, after, found);
    rows.push(...(found.length > 0 ? found : [{ path: [field], before, after }]));
  }
  return rows;
}

/** A row's place as people read it: `questions › #2 › text` (positions counted from 1). */
export function pathLabel(path: ChangeRow['path']): string {
  return path.map((part) => (typeof part === 'number' ? `#${part + 1}` : part)).join(' › ');
}

/** A value as it is shown: nothing, an empty text, or its text (a structure as indented JSON). */
export type ShownValue = { kind: 'none' } | { kind: 'empty' } | { kind: 'text'; text: string; code: boolean };

const HTML = /<\/?[a-z][a-z0-9]*(\s[^>]*)?\/?>/i;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };

/** Rich text's words, a paragraph or break a line each: the markup is not what changed for a reader. */
export function htmlToText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6]|tr)>/gi, '\n')
    .replace(/<li[^>]*>/gi, '• ')
    .replace(/<[^>]+>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => ENTITIES[name] ?? '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export function shownValue(value: unknown): ShownValue {
  if (value === null || value === undefined) return { kind: 'none' };
  if (typeof value === 'string') {
    if (value === '') return { kind: 'empty' };
    return { kind: 'text', text: HTML.test(value) ? htmlToText(value) : value, code: false };
  }
  if (typeof value === 'number' || typeof value === 'boolean')
    return { kind: 'text', text: String(value), code: false };
  if (Array.isArray(value) && value.every((item) => typeof item === 'string' || typeof item === 'number')) {
    return value.length === 0 ? { kind: 'empty' } : { kind: 'text', text: value.join(', '), code: false };
  }
  return { kind: 'text', text: JSON.stringify(value, null, 2), code: true };
}

/** Texts up to this long are shown whole. */
export const SHORT_TEXT = 120;

/** A run of a long text: the same on both sides, or only in the one before or after. */
export interface DiffPart {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/** Words, each with the space after it: a change is marked word by word (and a space is not a match). */
const tokens = (text: string): string[] => text.match(/\S+\s*|\s+/g) ?? [];

/** Past this many token pairs, the diff falls back to the common start and end (time and memory). */
const MAX_DIFF_CELLS = 1_000_000;

function push(parts: DiffPart[], kind: DiffPart['kind'], text: string) {
  const last = parts.at(-1);
  if (last?.kind === kind) last.text += text;
  else if (text) parts.push({ kind, text });
}

/**
 * Two texts as runs of words the same, removed and added (the longest common subsequence of
 * their words), so a long value shows which words changed. Two very long texts are compared by
 * their common start and end only: what lies between is one removal and one addition.
 */
export function wordDiff(before: string, after: string): DiffPart[] {
  const a = tokens(before);
  const b = tokens(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  const parts: DiffPart[] = [];
  push(parts, 'same', a.slice(0, start).join(''));
  const midA = a.slice(start, a.length - end);
  const midB = b.slice(start, b.length - end);
  if (midA.length * midB.length > MAX_DIFF_CELLS) {
    push(parts, 'removed', midA.join(''));
    push(parts, 'added', midB.join(''));
  } else {
    // lengths[i][j]: the longest common run of midA from i and midB from j.
    const lengths = Array.from({ length: midA.length + 1 }, () => new Uint32Array(midB.length + 1));
    for (let i = midA.length - 1; i >= 0; i--) {
      for (let j = midB.length - 1; j >= 0; j--) {
        lengths[i]![j] =
          midA[i] === midB[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
      }
    }
    let i = 0;
    let j = 0;
    while (i < midA.length || j < midB.length) {
      if (i < midA.length && j < midB.length && midA[i] === midB[j]) {
        push(parts, 'same', midA[i++]!);
        j++;
      } else if (i < midA.length && (j === midB.length || lengths[i + 1]![j]! >= lengths[i]![j + 1]!)) {
        // What went comes before what came in its place.
        push(parts, 'removed', midA[i++]!);
      } else {
        push(parts, 'added', midB[j++]!);
      }
    }
  }
  push(parts, 'same', a.slice(a.length - end).join(''));
  return parts;
}

/** A piece of one side of a diff as shown: text, a marked change, or `…` for unchanged text left out. */
export type ShownPart = DiffPart | { kind: 'gap' };

/** Unchanged text kept either side of a change, in characters (cut at a space). */
const CONTEXT = 60;

/**
 * One side of a diff (`before`: the same and removed runs; `after`: the same and added), with
 * long unchanged runs cut to a little context around each change unless `cut` is false.
 */
export function diffSide(parts: DiffPart[], side: 'before' | 'after', cut = true): ShownPart[] {
  const own = parts.filter((part) => part.kind === 'same' || part.kind === (side === 'before' ? 'removed' : 'added'));
  if (!cut) return own;
  const shown: ShownPart[] = [];
  own.forEach((part, index) => {
    if (part.kind !== 'same' || part.text.length <= CONTEXT * 2) return void shown.push(part);
    const first = index === 0;
    const last = index === own.length - 1;
    const lead = first ? '' : cutAfter(part.text, CONTEXT);
    const tail = last ? '' : cutBefore(part.text, CONTEXT);
    if (lead) shown.push({ kind: 'same', text: lead });
    shown.push({ kind: 'gap' });
    if (tail) shown.push({ kind: 'same', text: tail });
  });
  return shown;
}

/** The start of a text, about `length` long, ending at a space. */
function cutAfter(text: string, length: number): string {
  const space = text.lastIndexOf(' ', length);
  return text.slice(0, space > 0 ? space + 1 : length);
}

/** The end of a text, about `length` long, starting after a space. */
function cutBefore(text: string, length: number): string {
  const space = text.indexOf(' ', text.length - length);
  return text.slice(space >= 0 ? space : text.length - length);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A moment to the second, in the browser's time zone, as its day and its time: "Nov 26, 2026"
 * and "9:05:07 PM" (lib/format.ts's form, with the seconds an audit trail needs; written out
 * by hand for the same reason).
 */
export function momentParts(iso: string): { day: string; time: string } | null {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  const hours = date.getHours();
  const pad = (n: number) => String(n).padStart(2, '0');
  return {
    day: `${MONTHS[date.getMonth()]!} ${date.getDate()}, ${date.getFullYear()}`,
    time: `${hours % 12 || 12}:${pad(date.getMinutes())}:${pad(date.getSeconds())} ${hours < 12 ? 'AM' : 'PM'}`,
  };
}

/** "Nov 26, 2026, 9:05:07 PM". */
export function formatMoment(iso: string): string {
  const parts = momentParts(iso);
  return parts ? `${parts.day}, ${parts.time}` : '—';
}

/** A long ID cut to its first eight characters ("0193a1b2…"): enough to tell records apart on screen. */
export function shortId(id: string): string {
  return id.length > 12 ? `${id.slice(0, 8)}…` : id;
}

/**
 * Where a staff member opens the record an event names, when the screens have one for it (a
 * user's page is provider staff's only).
 */
export function targetPath(
  event: Pick<AuditEvent, 'target' | 'project_id' | 'client_id'>,
  superadmin: boolean,
): string | null {
  const { target, project_id: projectId, client_id: clientId } = event;
  if (!target) return null;
  const project = clientId && projectId ? `/project-management/clients/${clientId}/projects/${projectId}` : null;
  switch (target.type) {
    case 'case':
      return project && `${project}/cases/case-details/${target.id}`;
    case 'project':
      return clientId ? `/project-management/clients/${clientId}/projects/${target.id}` : null;
    case 'client':
      return `/project-management/clients/${target.id}`;
    case 'user':
      return superadmin ? `/user-management/${target.id}` : null;
    default:
      return null;
  }
}

/** The record types an action's group changes, where the group's name says it (`cases.create`). */
const GROUP_TYPES: Record<string, string> = { cases: 'case', users: 'user', projects: 'project', clients: 'client' };

/**
 * What kind of record an event's fields belong to, for naming them: its target's type, or the
 * one its action's group changes (an event may name no target, as a creation before its record has an ID).
 */
export function recordTypeOf(event: Pick<AuditEvent, 'target' | 'action'>): string | undefined {
  return event.target?.type ?? GROUP_TYPES[event.action.split('.')[0] ?? ''];
}
