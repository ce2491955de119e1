import { useState } from 'react';
import { Button, Text } from '@mantine/core';
import type { AuditEvent } from '@pss/contract';
import { useTranslation, type TextKey } from '../lib/i18n';
import { cases } from '../lib/i18n/admin-areas/cases';
import { users } from '../lib/i18n/admin-areas/users';
import {
  changeRows,
  diffSide,
  pathLabel,
  shownValue,
  SHORT_TEXT,
  wordDiff,
  type ChangeRow,
  type ShownPart,
} from '../lib/audit-format';
import classes from './audit.module.css';

/** Rows shown before "Show all": an event that rewrote a whole case would fill the screen. */
const FIRST_ROWS = 6;

const textsOf = <K extends string>(prefix: string, keys: readonly K[]) =>
  Object.fromEntries(keys.map((key) => [key, `${prefix}.${key}` as TextKey]));

/**
 * A record's fields by the names its screen gives them ("Reason for encounter" for a case's
 * `reason_for_encounter`); a field without one is shown as the event names it.
 */
const FIELD_TEXTS: Record<string, Record<string, TextKey>> = {
  case: {
    ...textsOf('cases.fields', Object.keys(cases.fields)),
    details_sections: 'cases.sections.details',
    groupers: 'cases.sections.groupers',
    questions: 'cases.sections.questions',
    status: 'cases.status',
  },
  user: { ...textsOf('users.fields', Object.keys(users.fields)), role: 'users.role', notes: 'common.notes' },
  project: {
    name: 'projects.name',
    status: 'projects.status',
    notes: 'projects.notes',
    seasons: 'projects.seasons',
    disease_types: 'projects.diseaseTypes',
    question_categories: 'projects.questionCategories',
  },
};

/**
 * An event's changed fields, each as field | before | after. A long text shows only the words
 * around what changed, marked, until the whole is asked for.
 */
export function AuditChanges({ changes, targetType }: { changes: AuditEvent['changes']; targetType?: string }) {
  const { t } = useTranslation();
  const [whole, setWhole] = useState(false);
  const rows = changeRows(changes);
  if (rows.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('audit.changesTable.noChanges')}
      </Text>
    );
  }
  const shown = whole ? rows : rows.slice(0, FIRST_ROWS);
  const long = rows.some(isLong);
  return (
    <div data-testid="audit-changes">
      <table className={classes.changes}>
        <thead>
          <tr>
            <th scope="col" className={classes.field}>
              {t('audit.changesTable.field')}
            </th>
            <th scope="col" className={classes.value}>
              {t('audit.changesTable.before')}
            </th>
            <th scope="col" className={classes.value}>
              {t('audit.changesTable.after')}
            </th>
          </tr>
        </thead>
        <tbody>
          {shown.map((row) => (
            <ChangeLine key={pathLabel(row.path)} row={row} whole={whole} fields={FIELD_TEXTS[targetType ?? '']} />
          ))}
        </tbody>
      </table>
      {rows.length > shown.length && (
        <Text size="xs" c="dimmed" mt={4}>
          {t('audit.changesTable.more', { count: rows.length - shown.length })}
        </Text>
      )}
      {(rows.length > FIRST_ROWS || long) && (
        <Button size="compact-xs" variant="subtle" mt={4} onClick={() => setWhole(!whole)} aria-expanded={whole}>
          {whole ? t('audit.changesTable.showLess') : t('audit.changesTable.showAll')}
        </Button>
      )}
    </div>
  );
}

function textOf(value: unknown): string | null {
  const shown = shownValue(value);
  return shown.kind === 'text' ? shown.text : null;
}

/** A value too long to show whole at first. */
function isLong(row: ChangeRow): boolean {
  return [row.before, row.after].some((value) => (textOf(value)?.length ?? 0) > SHORT_TEXT);
}

function ChangeLine(props: { row: ChangeRow; whole: boolean; fields: Record<string, TextKey> | undefined }) {
  const { t } = useTranslation();
  const { row, whole } = props;
  const [field, ...under] = row.path;
  const named = typeof field === 'string' ? props.fields?.[field] : undefined;
  const before = shownValue(row.before);
  const after = shownValue(row.after);
  // Two texts, one of them long: each side marks the words that changed in it, and (until the
  // whole is asked for) leaves out the unchanged text far from them.
  const diff =
    isLong(row) && before.kind === 'text' && after.kind === 'text' && !before.code && !after.code
      ? wordDiff(before.text, after.text)
      : null;
  return (
    <tr>
      <th
        scope="row"
        className={named ? classes.field : `${classes.field} ${classes.mono}`}
        title={pathLabel(row.path)}
      >
        {named ? [t(named), ...(under.length ? [pathLabel(under)] : [])].join(' › ') : pathLabel(row.path)}
      </th>
      <td className={classes.value}>
        {diff ? <Marked parts={diffSide(diff, 'before', !whole)} /> : <Value value={row.before} whole={whole} />}
      </td>
      <td className={classes.value}>
        {diff ? <Marked parts={diffSide(diff, 'after', !whole)} /> : <Value value={row.after} whole={whole} />}
      </td>
    </tr>
  );
}

function Value({ value, whole }: { value: unknown; whole: boolean }) {
  const { t } = useTranslation();
  const shown = shownValue(value);
  if (shown.kind === 'none') return <span className={classes.none}>{t('audit.changesTable.none')}</span>;
  if (shown.kind === 'empty') return <span className={classes.none}>{t('audit.changesTable.emptyText')}</span>;
  const clamp = !whole && shown.text.length > SHORT_TEXT;
  const className = [shown.code ? classes.code : '', clamp ? classes.clamped : ''].filter(Boolean).join(' ');
  return <div className={className || undefined}>{shown.text}</div>;
}

/** One side of a long text: removed words struck through, added ones underlined, left-out text as `…`. */
function Marked({ parts }: { parts: ShownPart[] }) {
  return (
    <span>
      {parts.map((part, index) =>
        part.kind === 'gap' ? (
          <span key={index}>…</span>
        ) : part.kind === 'removed' ? (
          <del key={index} className={classes.removed}>
            {part.text}
          </del>
        ) : part.kind === 'added' ? (
          <ins key={index} className={classes.added}>
            {part.text}
          </ins>
        ) : (
          <span key={index}>{part.text}</span>
        ),
      )}
    </span>
  );
}
