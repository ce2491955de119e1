import { describe, expect, it } from 'vitest';
import {
  changeRows,
  diffSide,
  formatMoment,
  htmlToText,
  pathLabel,
  recordTypeOf,
  sameValue,
  shownValue,
  targetPath,
  wordDiff,
} from './audit-format';

describe('changeRows', () => {
  it('shows a plain field as one row, before and after', () => {
    expect(changeRows({ name: { before: 'Breathless', after: 'Breathless at night' } })).toEqual([
      { path: ['name'], before: 'Breathless', after: 'Breathless at night' },
    ]);
  });

  it('opens a structure down to the parts that changed', () => {
    const before = {
      questions: [
        { id: 'q1', text: 'Why?', choices: ['a', 'b'] },
        { id: 'q2', text: 'How?' },
      ],
    };
    const after = {
      questions: [
        { id: 'q1', text: 'Why now?', choices: ['a', 'b'] },
        { id: 'q2', text: 'How?' },
      ],
    };
    expect(changeRows({ case: { before, after } })).toEqual([
      { path: ['case', 'questions', 0, 'text'], before: 'Why?', after: 'Why now?' },
    ]);
  });

  it('shows an added or removed item as a value against nothing', () => {
    expect(changeRows({ rounds: { before: [1, 2], after: [1, 2, 3] } })).toEqual([
      { path: ['rounds', 2], before: undefined, after: 3 },
    ]);
    expect(changeRows({ seasons: { before: [{ name: 'Spring' }], after: [] } })).toEqual([
      { path: ['seasons', 0], before: { name: 'Spring' }, after: undefined },
    ]);
  });

  it('treats objects with keys in another order as the same', () => {
    expect(sameValue({ a: 1, b: [1, { c: 2, d: 3 }] }, { b: [1, { d: 3, c: 2 }], a: 1 })).toBe(true);
    expect(sameValue({ a: 1 }, { a: 1, b: null })).toBe(false);
    expect(changeRows({ x: { before: { a: 1, b: 2 }, after: { b: 2, a: 1, c: 3 } } })).toEqual([
      { path: ['x', 'c'], before: undefined, after: 3 },
    ]);
  });

  it('still shows a field the event names with the same value either side', () => {
    expect(changeRows({ status: { before: 'DRAFT', after: 'DRAFT' } })).toEqual([
      { path: ['status'], before: 'DRAFT', after: 'DRAFT' },
    ]);
  });

  it('stops opening a structure past a depth, showing the part whole', () => {
    const deep = (leaf: string) => ({ a: { b: { c: { d: { e: { f: { g: leaf } } } } } } });
    const [row] = changeRows({ x: { before: deep('1'), after: deep('2') } });
    expect(row!.path).toEqual(['x', 'a', 'b', 'c', 'd', 'e']);
    expect(row!.before).toEqual({ f: { g: '1' } });
  });

  it('shows no row for an event without changes', () => {
    expect(changeRows({})).toEqual([]);
  });
});

describe('pathLabel', () => {
  it('counts positions from 1', () => {
    expect(pathLabel(['questions', 1, 'choices', 0, 'text'])).toBe('questions › #2 › choices › #1 › text');
  });
});

describe('shownValue', () => {
  it('tells nothing from an empty text', () => {
    expect(shownValue(null)).toEqual({ kind: 'none' });
    expect(shownValue(undefined)).toEqual({ kind: 'none' });
    expect(shownValue('')).toEqual({ kind: 'empty' });
    expect(shownValue([])).toEqual({ kind: 'empty' });
  });

  it('shows texts, numbers, flags and lists as text, structures as indented JSON', () => {
    expect(shownValue('Maria')).toEqual({ kind: 'text', text: 'Maria', code: false });
    expect(shownValue(3)).toEqual({ kind: 'text', text: '3', code: false });
    expect(shownValue(false)).toEqual({ kind: 'text', text: 'false', code: false });
    expect(shownValue(['Heart Failure', 'COPD'])).toEqual({ kind: 'text', text: 'Heart Failure, COPD', code: false });
    expect(shownValue({ a: 1 })).toEqual({ kind: 'text', text: '{\n  "a": 1\n}', code: true });
  });

  it('shows rich text as its words', () => {
    expect(shownValue('<p>One &amp; <strong>two</strong></p><p>three</p>')).toEqual({
      kind: 'text',
      text: 'One & two\nthree',
      code: false,
    });
  });

  it('leaves a text with angle brackets that is not markup alone', () => {
    expect(shownValue('BNP < 100 and > 50')).toEqual({ kind: 'text', text: 'BNP < 100 and > 50', code: false });
  });
});

describe('htmlToText', () => {
  it('writes breaks and list items on lines of their own', () => {
    expect(htmlToText('<ul><li>One</li><li>Two</li></ul>a<br>b')).toBe('• One\n• Two\na\nb');
  });
});

describe('wordDiff', () => {
  it('marks the words that changed, word by word', () => {
    expect(wordDiff('BP was 162/98 on two visits', 'BP was 164/100 on three visits')).toEqual([
      { kind: 'same', text: 'BP was ' },
      { kind: 'removed', text: '162/98 ' },
      { kind: 'added', text: '164/100 ' },
      { kind: 'same', text: 'on ' },
      { kind: 'removed', text: 'two ' },
      { kind: 'added', text: 'three ' },
      { kind: 'same', text: 'visits' },
    ]);
  });

  it('marks an insertion as added words only', () => {
    expect(wordDiff('short of breath', 'very short of breath')).toEqual([
      { kind: 'added', text: 'very ' },
      { kind: 'same', text: 'short of breath' },
    ]);
  });

  it('puts each side back together from its own runs', () => {
    const before = 'The patient, a 58-year-old man, has no symptoms and does not smoke.';
    const after = 'The patient, a 59-year-old woman, has mild symptoms and does not smoke at all.';
    const parts = wordDiff(before, after);
    const side = (kind: 'removed' | 'added') =>
      parts
        .filter((p) => p.kind === 'same' || p.kind === kind)
        .map((p) => p.text)
        .join('');
    expect(side('removed')).toBe(before);
    expect(side('added')).toBe(after);
  });

  it('compares two very long texts by their common start and end only', () => {
    const a = Array.from({ length: 1500 }, (_, i) => `a${i}`).join(' ');
    const b = Array.from({ length: 1500 }, (_, i) => `b${i}`).join(' ');
    const parts = wordDiff(`start ${a} end`, `start ${b} end`);
    expect(parts.map((p) => p.kind)).toEqual(['same', 'removed', 'added', 'same']);
  });
});

describe('diffSide', () => {
  const words = (from: number, n: number) => Array.from({ length: n }, (_, i) => `word${from + i}`).join(' ');

  it('cuts long unchanged text to a little context around each change', () => {
    const before = `${words(0, 40)} at rest ${words(100, 40)}`;
    const after = `${words(0, 40)} on exertion ${words(100, 40)}`;
    const shown = diffSide(wordDiff(before, after), 'after');
    expect(shown[0]).toEqual({ kind: 'gap' });
    expect(shown.find((p) => p.kind === 'added')).toEqual({ kind: 'added', text: 'on exertion ' });
    expect(shown.at(-1)).toEqual({ kind: 'gap' });
    const text = shown.map((p) => ('text' in p ? p.text : '…')).join('');
    expect(text.length).toBeLessThan(200);
    expect(text).toContain('word39 on exertion word100');
  });

  it('keeps the whole side when asked', () => {
    const before = `${words(0, 40)} at rest`;
    const after = `${words(0, 40)} on exertion`;
    const whole = diffSide(wordDiff(before, after), 'before', false);
    expect(whole.map((p) => ('text' in p ? p.text : '')).join('')).toBe(before);
  });
});

describe('formatMoment', () => {
  it('writes the moment to the second in the local time zone', () => {
    const local = new Date(2026, 10, 26, 21, 5, 7).toISOString();
    expect(formatMoment(local)).toBe('Nov 26, 2026, 9:05:07 PM');
    expect(formatMoment(new Date(2026, 0, 2, 0, 0, 0).toISOString())).toBe('Jan 2, 2026, 12:00:00 AM');
    expect(formatMoment('not a date')).toBe('—');
  });
});

describe('targetPath', () => {
  const client = '11111111-1111-4111-8111-111111111111';
  const project = '22222222-2222-4222-8222-222222222222';
  const id = '33333333-3333-4333-8333-333333333333';
  const event = (type: string, projectId: string | null = project) => ({
    target: { type, id },
    project_id: projectId,
    client_id: client,
  });

  it('opens a case in its project, a project and a client where the screens show them', () => {
    expect(targetPath(event('case'), false)).toBe(
      `/project-management/clients/${client}/projects/${project}/cases/case-details/${id}`,
    );
    expect(targetPath(event('project', null), false)).toBe(`/project-management/clients/${client}/projects/${id}`);
    expect(targetPath(event('client', null), false)).toBe(`/project-management/clients/${id}`);
  });

  it('opens a user only for provider staff, and nothing for an unknown type or a case outside a project', () => {
    expect(targetPath(event('user', null), true)).toBe(`/user-management/${id}`);
    expect(targetPath(event('user', null), false)).toBeNull();
    expect(targetPath(event('season'), true)).toBeNull();
    expect(targetPath(event('case', null), true)).toBeNull();
    expect(targetPath({ target: null, project_id: null, client_id: null }, true)).toBeNull();
  });
});

describe('recordTypeOf', () => {
  it('is the target’s type, or the one the action’s group changes', () => {
    expect(recordTypeOf({ target: { type: 'user', id: 'x' }, action: 'participants.setNotes' })).toBe('user');
    expect(recordTypeOf({ target: null, action: 'cases.create' })).toBe('case');
    expect(recordTypeOf({ target: null, action: 'scheduler.send' })).toBeUndefined();
  });
});
