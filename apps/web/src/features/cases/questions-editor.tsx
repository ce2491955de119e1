import {
  Button,
  Checkbox,
  Group,
  Menu,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from '../../lib/i18n';
import { isChoiceQuestion, questionTypes, type MarkedAsValue, type QuestionTypeValue } from '@pss/contract';
import type { CaseHome } from '../../lib/case-home';
import { RichTextField } from '../../components/lazy-rich-text-field';
import { EditorSection, fieldId, fieldProps, type CaseEditorForm, type SectionProps } from './case-editor-fields';
import { ItemControls } from './case-editor-sections';
import { changeType, newId, newQuestion, type FormQuestion } from './case-form';
import '../../lib/i18n/case';

const marks: MarkedAsValue[] = ['NECESSARY', 'APPROPRIATE', 'UNNECESSARY'];

/** The questions of a case, in order: type, text, category, grouper, choices and their marks. */
export function QuestionsEditor(props: SectionProps & { home: CaseHome }) {
  const { t } = useTranslation();
  const { form, errors, readOnly, home } = props;
  const { questions, groupers } = form.values;
  const defaultCategory = home.question_categories.length === 1 ? home.question_categories[0]!.id : null;

  return (
    <EditorSection
      id="case-questions"
      title={t('cases.sections.questions')}
      help={t('cases.questionsHelp')}
      action={
        !readOnly && (
          <Menu position="bottom-start">
            <Menu.Target>
              <Button variant="default" id={fieldId('questions')}>
                {t('cases.addQuestion')}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {questionTypes.map((type) => (
                <Menu.Item
                  key={type}
                  onClick={() => form.insertListItem('questions', newQuestion(type, defaultCategory))}
                >
                  {t(`cases.questionTypes.${type}`)}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        )
      }
    >
      {errors.questions && (
        <Text size="sm" c="red.8">
          {errors.questions}
        </Text>
      )}
      {questions.length === 0 && !errors.questions && (
        <Text size="sm" c="dimmed">
          {t('cases.noQuestions')}
        </Text>
      )}
      {questions.map((question, i) => (
        <QuestionCard
          key={question.id}
          form={form}
          index={i}
          count={questions.length}
          question={question}
          home={home}
          groupers={groupers}
          errors={errors}
          readOnly={readOnly}
        />
      ))}
    </EditorSection>
  );
}

function QuestionCard(props: {
  form: CaseEditorForm;
  index: number;
  count: number;
  question: FormQuestion;
  home: CaseHome;
  groupers: { id: string; name: string }[];
  errors: Record<string, string>;
  readOnly: boolean;
}) {
  const { t } = useTranslation();
  const { form, question: q, index: i, errors, readOnly } = props;
  const at = `questions.${i}`;
  const label = t('common.caseView.questionN', { n: i + 1 });
  const choiceType = isChoiceQuestion(q.type);

  return (
    <Paper withBorder p="md" bg="gray.0" component="fieldset" aria-label={label} id={fieldId(at)}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={5}>
            {label} · {t(`cases.questionTypes.${q.type}`)}
          </Title>
          <ItemControls
            label={label}
            index={i}
            count={props.count}
            readOnly={readOnly}
            onMove={(to) => form.reorderListItem('questions', { from: i, to })}
            onRemove={() => form.removeListItem('questions', i)}
          />
        </Group>
        {/* Side by side from a tablet's width; one under another on a phone, each whole. */}
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Select
            label={t('cases.questionType', { n: i + 1 })}
            data={questionTypes.map((type) => ({ value: type, label: t(`cases.questionTypes.${type}`) }))}
            value={q.type}
            allowDeselect={false}
            onChange={(value) => value && form.setFieldValue(at, changeType(q, value as QuestionTypeValue))}
          />
          <Select
            label={t('cases.questionCategory', { n: i + 1 })}
            required
            data={props.home.question_categories.map((c) => ({ value: c.id, label: c.name }))}
            {...fieldProps(form, errors, `${at}.category_id`)}
          />
          <Select
            label={t('cases.questionGrouper', { n: i + 1 })}
            clearable
            placeholder={t('cases.noGrouper')}
            data={props.groupers.map((g, j) => ({ value: g.id, label: g.name || t('cases.grouperN', { n: j + 1 }) }))}
            value={q.grouper_id}
            onChange={(value) => form.setFieldValue(`${at}.grouper_id`, value)}
          />
        </SimpleGrid>
        <RichTextField
          label={t('cases.textBefore', { n: i + 1 })}
          value={q.text_before}
          readOnly={readOnly}
          minHeight={60}
          onChange={(html) => form.setFieldValue(`${at}.text_before`, html)}
        />
        <TextInput label={t('cases.questionText', { n: i + 1 })} required {...fieldProps(form, errors, `${at}.text`)} />
        <Switch label={t('cases.required')} {...form.getInputProps(`${at}.required`, { type: 'checkbox' })} />
        {q.type !== 'TEXT' && (
          <Stack gap="xs" id={fieldId(`${at}.choices`)}>
            <Text size="sm" fw={500}>
              {q.type === 'TYPE_AHEAD' ? t('cases.suggestions') : t('cases.choices')}
            </Text>
            {errors[`${at}.choices`] && (
              <Text size="sm" c="red.8">
                {errors[`${at}.choices`]}
              </Text>
            )}
            {q.choices.map((choice, j) => {
              const choiceLabel = t('cases.choiceN', { question: i + 1, n: j + 1 });
              return (
                <Group key={choice.id} align="flex-start" wrap="wrap" gap="xs">
                  <TextInput
                    aria-label={choiceLabel}
                    placeholder={choiceLabel}
                    flex="1 1 12rem"
                    {...fieldProps(form, errors, `${at}.choices.${j}.text`)}
                  />
                  {choiceType && (
                    <Select
                      aria-label={t('cases.markedAsFor', { choice: choiceLabel })}
                      placeholder={t('cases.markAs')}
                      w={170}
                      data={marks.map((m) => ({ value: m, label: t(`common.caseView.marks.${m}`) }))}
                      {...fieldProps(form, errors, `${at}.choices.${j}.marked_as`)}
                    />
                  )}
                  {!readOnly && (
                    <Button
                      variant="subtle"
                      color="red"
                      size="compact-sm"
                      mt={4}
                      aria-label={t('cases.removeItem', { item: choiceLabel })}
                      onClick={() => form.removeListItem(`${at}.choices`, j)}
                    >
                      {t('common.remove')}
                    </Button>
                  )}
                </Group>
              );
            })}
            {!readOnly && (
              <Group>
                <Button
                  variant="default"
                  size="xs"
                  onClick={() => form.insertListItem(`${at}.choices`, { id: newId(), text: '', marked_as: null })}
                >
                  {q.type === 'TYPE_AHEAD'
                    ? t('cases.addSuggestion', { n: i + 1 })
                    : t('cases.addChoice', { n: i + 1 })}
                </Button>
              </Group>
            )}
            {choiceType && (
              <Group>
                <Checkbox
                  label={t('cases.allowOther')}
                  {...form.getInputProps(`${at}.allow_other`, { type: 'checkbox' })}
                />
                <Checkbox
                  label={t('cases.allowNoneOfBelow')}
                  {...form.getInputProps(`${at}.allow_none_of_below`, { type: 'checkbox' })}
                />
              </Group>
            )}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
