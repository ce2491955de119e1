import { Button, Checkbox, Group, Menu, Paper, Select, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isChoiceQuestion, QuestionType, type MarkedAsValue, type QuestionTypeValue } from '@pss/contract';
import type { CaseHome } from '../../lib/case-home';
import { RichTextField } from '../../components/rich-text-field';
import { EditorSection, fieldId, type SectionProps } from './case-editor-fields';
import { ItemControls } from './case-editor-sections';
import { changeType, moveItem, newId, newQuestion, type FormQuestion } from './case-form';

const questionTypes = QuestionType.options;
const marks: MarkedAsValue[] = ['NECESSARY', 'APPROPRIATE', 'UNNECESSARY'];

/** The questions of a case, in order: type, text, category, grouper, choices and their marks. */
export function QuestionsEditor(props: SectionProps & { home: CaseHome }) {
  const { t } = useTranslation();
  const { form, errors, readOnly, onChange, home } = props;
  const defaultCategory = home.question_categories.length === 1 ? home.question_categories[0]!.id : null;

  function update(index: number, patch: (q: FormQuestion) => FormQuestion) {
    onChange((f) => ({ ...f, questions: f.questions.map((q, i) => (i === index ? patch(q) : q)) }));
  }

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
                  onClick={() =>
                    onChange((f) => ({ ...f, questions: [...f.questions, newQuestion(type, defaultCategory)] }))
                  }
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
      {form.questions.length === 0 && !errors.questions && (
        <Text size="sm" c="dimmed">
          {t('cases.noQuestions')}
        </Text>
      )}
      {form.questions.map((question, i) => (
        <QuestionCard
          key={question.id}
          index={i}
          count={form.questions.length}
          question={question}
          home={home}
          groupers={form.groupers}
          errors={errors}
          readOnly={readOnly}
          onUpdate={(patch) => update(i, patch)}
          onMove={(to) => onChange((f) => ({ ...f, questions: moveItem(f.questions, i, to) }))}
          onRemove={() => onChange((f) => ({ ...f, questions: f.questions.filter((_, j) => j !== i) }))}
        />
      ))}
    </EditorSection>
  );
}

function QuestionCard(props: {
  index: number;
  count: number;
  question: FormQuestion;
  home: CaseHome;
  groupers: { id: string; name: string }[];
  errors: Record<string, string>;
  readOnly: boolean;
  onUpdate(patch: (q: FormQuestion) => FormQuestion): void;
  onMove(to: number): void;
  onRemove(): void;
}) {
  const { t } = useTranslation();
  const { question: q, index: i, errors, readOnly, onUpdate } = props;
  const at = `questions.${i}`;
  const label = t('cases.questionN', { n: i + 1 });
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
            onMove={props.onMove}
            onRemove={props.onRemove}
          />
        </Group>
        <Group grow align="flex-start" wrap="wrap">
          <Select
            label={t('cases.questionType', { n: i + 1 })}
            data={questionTypes.map((type) => ({ value: type, label: t(`cases.questionTypes.${type}`) }))}
            value={q.type}
            allowDeselect={false}
            onChange={(value) => value && onUpdate((current) => changeType(current, value as QuestionTypeValue))}
          />
          <Select
            id={fieldId(`${at}.category_id`)}
            label={t('cases.questionCategory', { n: i + 1 })}
            required
            data={props.home.question_categories.map((c) => ({ value: c.id, label: c.name }))}
            value={q.category_id}
            error={errors[`${at}.category_id`]}
            onChange={(value) => onUpdate((current) => ({ ...current, category_id: value }))}
          />
          <Select
            label={t('cases.questionGrouper', { n: i + 1 })}
            clearable
            placeholder={t('cases.noGrouper')}
            data={props.groupers.map((g, j) => ({ value: g.id, label: g.name || t('cases.grouperN', { n: j + 1 }) }))}
            value={q.grouper_id}
            onChange={(value) => onUpdate((current) => ({ ...current, grouper_id: value }))}
          />
        </Group>
        <RichTextField
          label={t('cases.textBefore', { n: i + 1 })}
          value={q.text_before}
          readOnly={readOnly}
          minHeight={60}
          onChange={(html) => onUpdate((current) => ({ ...current, text_before: html }))}
        />
        <TextInput
          id={fieldId(`${at}.text`)}
          label={t('cases.questionText', { n: i + 1 })}
          required
          value={q.text}
          error={errors[`${at}.text`]}
          onChange={(e) => {
            const text = e.currentTarget.value;
            onUpdate((current) => ({ ...current, text }));
          }}
        />
        <Switch
          label={t('cases.required')}
          checked={q.required}
          onChange={(e) => {
            const required = e.currentTarget.checked;
            onUpdate((current) => ({ ...current, required }));
          }}
        />
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
                <Group key={choice.id} align="flex-start" wrap="nowrap">
                  <TextInput
                    id={fieldId(`${at}.choices.${j}.text`)}
                    aria-label={choiceLabel}
                    placeholder={choiceLabel}
                    flex={1}
                    value={choice.text}
                    error={errors[`${at}.choices.${j}.text`]}
                    onChange={(e) => {
                      const text = e.currentTarget.value;
                      onUpdate((current) => ({
                        ...current,
                        choices: current.choices.map((c, k) => (k === j ? { ...c, text } : c)),
                      }));
                    }}
                  />
                  {choiceType && (
                    <Select
                      id={fieldId(`${at}.choices.${j}.marked_as`)}
                      aria-label={t('cases.markedAsFor', { choice: choiceLabel })}
                      placeholder={t('cases.markAs')}
                      w={170}
                      data={marks.map((m) => ({ value: m, label: t(`cases.marks.${m}`) }))}
                      value={choice.marked_as}
                      error={errors[`${at}.choices.${j}.marked_as`]}
                      onChange={(value) =>
                        onUpdate((current) => ({
                          ...current,
                          choices: current.choices.map((c, k) =>
                            k === j ? { ...c, marked_as: (value as MarkedAsValue | null) ?? null } : c,
                          ),
                        }))
                      }
                    />
                  )}
                  {!readOnly && (
                    <Button
                      variant="subtle"
                      color="red"
                      size="compact-sm"
                      mt={4}
                      aria-label={t('cases.removeItem', { item: choiceLabel })}
                      onClick={() =>
                        onUpdate((current) => ({ ...current, choices: current.choices.filter((_, k) => k !== j) }))
                      }
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
                  onClick={() =>
                    onUpdate((current) => ({
                      ...current,
                      choices: [...current.choices, { id: newId(), text: '', marked_as: null }],
                    }))
                  }
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
                  checked={q.allow_other}
                  onChange={(e) => {
                    const allow_other = e.currentTarget.checked;
                    onUpdate((current) => ({ ...current, allow_other }));
                  }}
                />
                <Checkbox
                  label={t('cases.allowNoneOfBelow')}
                  checked={q.allow_none_of_below}
                  onChange={(e) => {
                    const allow_none_of_below = e.currentTarget.checked;
                    onUpdate((current) => ({ ...current, allow_none_of_below }));
                  }}
                />
              </Group>
            )}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
