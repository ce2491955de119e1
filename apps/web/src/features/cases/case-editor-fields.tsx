import type { ReactNode } from 'react';
import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { CaseForm } from './case-form';

/** Messages beside the editor's fields, keyed by field path (`questions.2.choices.1.text`). */
export type EditorErrors = Record<string, string>;

/** The DOM id of the field at a path: problem links jump to it. */
export function fieldId(path: string): string {
  return `case-field-${path.replace(/\./g, '-')}`;
}

export interface SectionProps {
  form: CaseForm;
  errors: EditorErrors;
  readOnly: boolean;
  onChange(update: (current: CaseForm) => CaseForm): void;
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
