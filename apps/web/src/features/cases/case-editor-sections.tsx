import { ActionIcon, Button, Group, Paper, Radio, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from '../../lib/i18n';
import { RichTextField } from '../../components/lazy-rich-text-field';
import { EditorSection, fieldId, fieldProps, type SectionProps } from './case-editor-fields';
import { newId, removeGrouper } from './case-form';

/*
 * Case Setup's list sections (details sections, groupers) and its feedback; the background
 * is in ./case-background-section.tsx, the questions in ./questions-editor.tsx.
 */

/** Up, down and remove buttons for an item of a list section. */
export function ItemControls(props: {
  label: string;
  index: number;
  count: number;
  readOnly: boolean;
  onMove(to: number): void;
  onRemove(): void;
}) {
  const { t } = useTranslation();
  if (props.readOnly) return null;
  return (
    <Group gap={4}>
      <ActionIcon
        variant="default"
        aria-label={t('cases.moveUp', { item: props.label })}
        disabled={props.index === 0}
        onClick={() => props.onMove(props.index - 1)}
      >
        ↑
      </ActionIcon>
      <ActionIcon
        variant="default"
        aria-label={t('cases.moveDown', { item: props.label })}
        disabled={props.index === props.count - 1}
        onClick={() => props.onMove(props.index + 1)}
      >
        ↓
      </ActionIcon>
      <Button
        variant="subtle"
        color="red"
        size="compact-sm"
        onClick={props.onRemove}
        aria-label={t('cases.removeItem', { item: props.label })}
      >
        {t('common.remove')}
      </Button>
    </Group>
  );
}

export function DetailsSectionsEditor({ form, errors, readOnly }: SectionProps) {
  const { t } = useTranslation();
  const sections = form.values.details_sections;
  return (
    <EditorSection
      id="case-details-sections"
      title={t('cases.sections.details')}
      help={t('cases.detailsHelp')}
      action={
        !readOnly && (
          <Button
            variant="default"
            onClick={() => form.insertListItem('details_sections', { id: newId(), name: '', text: '' })}
          >
            {t('cases.addSection')}
          </Button>
        )
      }
    >
      {sections.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('cases.noSections')}
        </Text>
      )}
      {sections.map((section, i) => {
        const label = t('cases.sectionN', { n: i + 1 });
        return (
          <Paper key={section.id} withBorder p="md" bg="gray.0">
            <Stack gap="sm">
              <Group justify="space-between" align="flex-end">
                <TextInput
                  label={t('cases.sectionName', { n: i + 1 })}
                  required
                  flex={1}
                  {...fieldProps(form, errors, `details_sections.${i}.name`)}
                />
                <ItemControls
                  label={label}
                  index={i}
                  count={sections.length}
                  readOnly={readOnly}
                  onMove={(to) => form.reorderListItem('details_sections', { from: i, to })}
                  onRemove={() => form.removeListItem('details_sections', i)}
                />
              </Group>
              <RichTextField
                id={fieldId(`details_sections.${i}.text`)}
                label={t('cases.sectionText', { n: i + 1 })}
                required
                value={section.text}
                error={errors[`details_sections.${i}.text`]}
                readOnly={readOnly}
                onChange={(html) => form.setFieldValue(`details_sections.${i}.text`, html)}
              />
            </Stack>
          </Paper>
        );
      })}
    </EditorSection>
  );
}

export function GroupersEditor({ form, errors, readOnly }: SectionProps) {
  const { t } = useTranslation();
  const groupers = form.values.groupers;
  return (
    <EditorSection
      id="case-groupers"
      title={t('cases.sections.groupers')}
      help={t('cases.groupersHelp')}
      action={
        !readOnly && (
          <Button variant="default" onClick={() => form.insertListItem('groupers', { id: newId(), name: '' })}>
            {t('cases.addGrouper')}
          </Button>
        )
      }
    >
      {groupers.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('cases.noGroupers')}
        </Text>
      )}
      {groupers.map((grouper, i) => (
        <Group key={grouper.id} align="flex-end" id={fieldId(`groupers.${i}`)}>
          <TextInput
            label={t('cases.grouperName', { n: i + 1 })}
            required
            flex={1}
            {...fieldProps(form, errors, `groupers.${i}.name`)}
            error={errors[`groupers.${i}.name`] ?? errors[`groupers.${i}`]}
          />
          <ItemControls
            label={t('cases.grouperN', { n: i + 1 })}
            index={i}
            count={groupers.length}
            readOnly={readOnly}
            onMove={(to) => form.reorderListItem('groupers', { from: i, to })}
            onRemove={() => form.setValues(removeGrouper(form.getValues(), i))}
          />
        </Group>
      ))}
    </EditorSection>
  );
}

export function FeedbackSection({ form, errors, readOnly }: SectionProps) {
  const { t } = useTranslation();
  const values = form.values;
  return (
    <EditorSection id="case-feedback" title={t('cases.sections.feedback')} help={t('cases.feedbackHelp')}>
      <Radio.Group
        id={fieldId('feedback_type')}
        label={t('cases.feedbackType')}
        required
        value={values.feedback_type ?? ''}
        error={errors.feedback_type}
        onChange={(value) => form.setFieldValue('feedback_type', value as 'PERSONALIZED_FEEDBACK' | 'GENERAL_FEEDBACK')}
      >
        <Stack gap="xs" mt="xs">
          <Radio value="PERSONALIZED_FEEDBACK" label={t('cases.feedbackTypes.PERSONALIZED_FEEDBACK')} />
          <Radio value="GENERAL_FEEDBACK" label={t('cases.feedbackTypes.GENERAL_FEEDBACK')} />
        </Stack>
      </Radio.Group>
      <RichTextField
        id={fieldId('explanation')}
        label={t('cases.fields.explanation')}
        required={values.feedback_type === 'GENERAL_FEEDBACK'}
        value={values.explanation}
        error={errors.explanation}
        readOnly={readOnly}
        onChange={(html) => form.setFieldValue('explanation', html)}
      />
      <RichTextField
        id={fieldId('test_results')}
        label={t('cases.fields.test_results')}
        value={values.test_results}
        readOnly={readOnly}
        onChange={(html) => form.setFieldValue('test_results', html)}
      />
      <RichTextField
        id={fieldId('references')}
        label={t('cases.fields.references')}
        value={values.references}
        readOnly={readOnly}
        onChange={(html) => form.setFieldValue('references', html)}
      />
    </EditorSection>
  );
}
