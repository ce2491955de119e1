import type { ReactNode } from 'react';
import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { CaseForm } from './case-form';

/** The editor's `useForm`: values, list moves and the messages the form set (its own check, the server's). */
export type CaseEditorForm = UseFormReturnType<CaseForm>;

/**
 * Messages beside the editor's fields, keyed by field path (`questions.2.choices.1.text`):
 * the form's own (a failed check or save) first, then the publish problems.
 */
export type EditorErrors = Record<string, string>;

/** The DOM id of the field at a path: problem links jump to it. */
export function fieldId(path: string): string {
  return `case-field-${path.replace(/\./g, '-')}`;
}

export interface SectionProps {
  form: CaseEditorForm;
  errors: EditorErrors;
  readOnly: boolean;
}

/** What a TextInput or Select at a path takes: its id, value, change handler and message. */
export function fieldProps(form: CaseEditorForm, errors: EditorErrors, path: string) {
  const { value, onChange } = form.getInputProps(path);
  return { id: fieldId(path), value: value as string, onChange, error: errors[path] };
}

/** One titled section of Case Setup (background, details sections, groupers, questions, feedback). */
export function EditorSection(props: {
  id: string;
  title: string;
  help?: string;
  children: ReactNode;
  action?: ReactNode;
}) {
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby={`${props.id}-title`} id={props.id}>
      <Stack gap="md">
        <div>
          <Title order={4} id={`${props.id}-title`}>
            {props.title}
          </Title>
          {props.help && (
            <Text size="sm" c="dimmed">
              {props.help}
            </Text>
          )}
        </div>
        {props.children}
        {props.action && <Group>{props.action}</Group>}
      </Stack>
    </Paper>
  );
}
