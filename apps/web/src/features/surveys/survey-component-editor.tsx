import type { ReactNode } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Paper,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from '../../lib/i18n';
import { isChoiceQuestion, questionTypes, type QuestionTypeValue } from '@pss/contract';
import {
  builderFieldId,
  changeQuestionType,
  newId,
  type FormComponent,
  type FormQuestion,
  type SurveyForm,
} from './survey-form';

/** One component of a page: an info review (the participant's details) or a question. */
export function ComponentEditor(props: {
  form: SurveyForm;
  component: FormComponent;
  at: string;
  onRemove(): void;
  errors: Record<string, string>;
  readOnly: boolean;
}) {
  const { t } = useTranslation();
  const { form, component, at, errors, readOnly } = props;
  const remove = !readOnly && (
    <Button variant="subtle" color="red" size="xs" onClick={props.onRemove}>
      {t('surveys.removeComponent')}
    </Button>
  );
  if (component.kind === 'INFO_REVIEW') {
    return (
      <Paper withBorder p="sm" bg="gray.0" id={builderFieldId(at)}>
        <Stack gap="xs">
          <Group justify="space-between">
            <Title order={4} size="h5">
              {t('surveys.infoReview')}
            </Title>
            {remove}
          </Group>
          {errors[at] && (
            <Alert color="red" role="alert" p="xs">
              {errors[at]}
            </Alert>
          )}
          <Text size="sm" c="dimmed">
            {t('surveys.infoReviewHelp')}
          </Text>
          <TextInput
            label={t('surveys.infoReviewText')}
            value={component.text}
            readOnly={readOnly}
            onChange={(e) => form.setFieldValue(`${at}.text`, e.currentTarget.value)}
          />
        </Stack>
      </Paper>
    );
  }
  return <QuestionEditor {...props} question={component} remove={remove} />;
}

function QuestionEditor(props: {
  form: SurveyForm;
  question: FormQuestion;
  at: string;
  errors: Record<string, string>;
  readOnly: boolean;
  remove: ReactNode;
}) {
  const { t } = useTranslation();
  const { form, question: q, at, errors, readOnly } = props;
  const set = (value: FormQuestion) => form.setFieldValue(at, value);
  return (
    <Paper withBorder p="sm">
      <Stack gap="xs">
        <Group justify="space-between" align="flex-end" wrap="wrap">
          <Select
            label={t('surveys.questionType')}
            data={questionTypes.map((type) => ({ value: type, label: t(`surveys.questionTypes.${type}`) }))}
            value={q.type}
            allowDeselect={false}
            readOnly={readOnly}
            onChange={(type) => type && set(changeQuestionType(q, type as QuestionTypeValue))}
            w={{ base: '100%', xs: 300 }}
          />
          <Group gap="xs">
            <Switch
              label={t('surveys.required')}
              checked={q.required}
              disabled={readOnly}
              onChange={(e) => set({ ...q, required: e.currentTarget.checked })}
            />
            {props.remove}
          </Group>
        </Group>
        {/* Grows with a long question, so a locked survey's questions are read whole on a phone. */}
        <Textarea
          autosize
          minRows={1}
          id={builderFieldId(`${at}.text`)}
          label={t('surveys.questionText')}
          withAsterisk
          value={q.text}
          error={errors[`${at}.text`]}
          readOnly={readOnly}
          onChange={(e) => form.setFieldValue(`${at}.text`, e.currentTarget.value)}
        />
        {q.type !== 'TEXT' && (
          <Stack gap={4} id={builderFieldId(`${at}.choices`)}>
            <Text size="sm" fw={500}>
              {q.type === 'TYPE_AHEAD' ? t('surveys.suggestions') : t('surveys.choices')}
            </Text>
            {errors[`${at}.choices`] && (
              <Text size="sm" c="red.8">
                {errors[`${at}.choices`]}
              </Text>
            )}
            {q.choices.map((choice, j) => (
              <Group key={choice.id} gap="xs" wrap="nowrap" align="flex-start">
                <TextInput
                  aria-label={t('surveys.choice', { n: j + 1 })}
                  placeholder={t('surveys.choice', { n: j + 1 })}
                  value={choice.text}
                  error={errors[`${at}.choices.${j}.text`]}
                  readOnly={readOnly}
                  onChange={(e) => form.setFieldValue(`${at}.choices.${j}.text`, e.currentTarget.value)}
                  style={{ flex: 1 }}
                />
                {!readOnly && (
                  <Button
                    variant="subtle"
                    color="gray"
                    aria-label={t('surveys.removeChoice', { n: j + 1 })}
                    onClick={() => form.removeListItem(`${at}.choices`, j)}
                  >
                    ×
                  </Button>
                )}
              </Group>
            ))}
            {!readOnly && (
              <Group>
                <Button
                  variant="subtle"
                  size="xs"
                  onClick={() => form.insertListItem(`${at}.choices`, { id: newId(), text: '' })}
                >
                  {t('surveys.addChoice')}
                </Button>
              </Group>
            )}
          </Stack>
        )}
        {isChoiceQuestion(q.type) && (
          <Group>
            <Checkbox
              label={t('surveys.allowOther')}
              checked={q.allow_other}
              disabled={readOnly}
              onChange={(e) => set({ ...q, allow_other: e.currentTarget.checked })}
            />
            <Checkbox
              label={t('surveys.allowNone')}
              checked={q.allow_none_of_below}
              disabled={readOnly}
              onChange={(e) => set({ ...q, allow_none_of_below: e.currentTarget.checked })}
            />
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
