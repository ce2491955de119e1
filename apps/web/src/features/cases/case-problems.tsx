import { Alert, Anchor, List } from '@mantine/core';
import type { FieldIssue } from '@pss/contract';
import { useTranslation, type TFunction } from '../../lib/i18n';
import type { adminTexts } from '../../lib/i18n/admin-texts';
import { fieldId } from './case-editor-fields';
import type { CaseForm } from './case-form';

/**
 * What keeps the case from being published, once publishing was asked for: each problem named
 * where it is, in words, and linked to its field (Case Setup, ./case-editor-page.tsx).
 */
export function CaseProblems(props: { problems: FieldIssue[]; form: CaseForm }) {
  const { t } = useTranslation();
  if (props.problems.length === 0) return null;
  return (
    <Alert
      color="red"
      title={t('cases.problemsTitle', { count: props.problems.length })}
      id="case-problems"
      tabIndex={-1}
      role="alert"
    >
      <List size="sm" spacing={2}>
        {props.problems.map((p) => (
          <List.Item key={`${p.field}:${p.message}`}>
            <Anchor
              href={`#${fieldId(p.field)}`}
              size="sm"
              c="red.9"
              onClick={(e) => {
                if (focusField(p.field)) e.preventDefault();
              }}
            >
              {describePath(p.field, props.form, t)}: {p.message}
            </Anchor>
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}

/** Brings the field at a path into view and focuses it; false when it is not on the page. */
export function focusField(path: string): boolean {
  const target = document.getElementById(fieldId(path));
  if (!target) return false;
  target.scrollIntoView({ block: 'center' });
  const focusable = target.matches('input, textarea, button, [contenteditable="true"], [tabindex]')
    ? target
    : target.querySelector<HTMLElement>('input, textarea, button, [contenteditable="true"]');
  (focusable as HTMLElement | null)?.focus({ preventScroll: true });
  return true;
}

/** "Question 2, choice 1" for `questions.1.choices.0.text`: where a problem is, in words. */
function describePath(path: string, form: CaseForm, t: TFunction): string {
  const parts = path.split('.');
  const [head, index, sub, subIndex] = parts;
  const n = Number(index) + 1;
  switch (head) {
    case 'questions':
      if (index === undefined) return t('cases.sections.questions');
      return sub === 'choices' && subIndex !== undefined
        ? t('cases.where.choice', { question: n, choice: Number(subIndex) + 1 })
        : t('cases.where.question', { question: n });
    case 'details_sections':
      return t('cases.where.section', { section: form.details_sections[Number(index)]?.name || n });
    case 'groupers':
      return t('cases.where.grouper', { grouper: form.groupers[Number(index)]?.name || n });
    default:
      // Any other problem is about one of the case's own fields, each of which has a name.
      return t(`cases.fields.${head as keyof typeof adminTexts.cases.fields & string}`);
  }
}
