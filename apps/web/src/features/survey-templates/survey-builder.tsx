import type { ReactNode } from 'react';
import {
  ActionIcon,
  Alert,
  Button,
  Checkbox,
  Group,
  Menu,
  Paper,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useTranslation } from '../../lib/i18n';
import { isChoiceQuestion, questionTypes, type QuestionTypeValue } from '@pss/contract';
import {
  changeQuestionType,
  moveItem,
  newId,
  newInfoReview,
  newPage,
  newQuestion,
  type FormComponent,
  type FormPage,
  type FormQuestion,
  type SurveyFormValues,
} from './survey-form';

export type SurveyForm = UseFormReturnType<SurveyFormValues>;
/** A field's id in the page, so a problem's link can take the eye (and focus) to it. */
export const builderFieldId = (path: string) => `survey-${path.replace(/\./g, '-')}`;

/**
 * Reordering by drag (pointer) and by keyboard (focus a handle, space, arrows, space), with
 * what happens read out to screen readers: dnd-kit's sortable lists.
 */
function SortableList(props: {
  ids: string[];
  nameOf(id: string): string;
  onMove(from: number, to: number): void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const position = (id: unknown) => props.ids.indexOf(String(id)) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) => t('surveys.dnd.pickedUp', { name: props.nameOf(String(active.id)) }),
    onDragOver: ({ active, over }) =>
      over ? t('surveys.dnd.over', { name: props.nameOf(String(active.id)), n: position(over.id) }) : undefined,
    onDragEnd: ({ active, over }) =>
      over ? t('surveys.dnd.dropped', { name: props.nameOf(String(active.id)), n: position(over.id) }) : undefined,
    onDragCancel: ({ active }) => t('surveys.dnd.cancelled', { name: props.nameOf(String(active.id)) }),
  };
  function end(event: DragEndEvent) {
    if (!event.over || event.active.id === event.over.id) return;
    props.onMove(props.ids.indexOf(String(event.active.id)), props.ids.indexOf(String(event.over.id)));
  }
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={end}
      accessibility={{ announcements, screenReaderInstructions: { draggable: t('surveys.dnd.instructions') } }}
    >
      <SortableContext items={props.ids} strategy={verticalListSortingStrategy}>
        {props.children}
      </SortableContext>
    </DndContext>
  );
}

/** One sortable item: its drag handle (a button: focusable, moved by keyboard) and its content. */
function SortableItem(props: { id: string; handleLabel: string; children: ReactNode; testId?: string }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: props.id,
  });
  return (
    <div
      ref={setNodeRef}
      data-testid={props.testId}
      style={{
        transform: CSS.Translate.toString(transform),
        transition,
        opacity: isDragging ? 0.6 : 1,
        position: 'relative',
        zIndex: isDragging ? 2 : undefined,
      }}
    >
      <Group align="flex-start" gap="xs" wrap="nowrap">
        <ActionIcon
          ref={setActivatorNodeRef}
          variant="subtle"
          color="gray"
          aria-label={props.handleLabel}
          style={{ cursor: 'grab', touchAction: 'none' }}
          mt={6}
          {...attributes}
          {...listeners}
        >
          <span aria-hidden="true">⠿</span>
        </ActionIcon>
        <div style={{ flex: 1, minWidth: 0 }}>{props.children}</div>
      </Group>
    </div>
  );
}

/** The pages of a template, each with its components, reordered by drag or keyboard. */
export function SurveyBuilder(props: { form: SurveyForm; errors: Record<string, string>; readOnly: boolean }) {
  const { t } = useTranslation();
  const { form, errors, readOnly } = props;
  const { pages } = form.values;
  const pageName = (id: string) => pages.find((p) => p.id === id)?.name || t('surveys.pageNumber', { n: 0 });

  return (
    <Stack gap="md">
      {pages.length === 0 && <Text c="dimmed">{t('surveys.noPages')}</Text>}
      <SortableList
        ids={pages.map((p) => p.id)}
        nameOf={pageName}
        onMove={(from, to) => form.setFieldValue('pages', moveItem(form.getValues().pages, from, to))}
      >
        <Stack gap="md">
          {pages.map((page, p) => (
            <SortableItem
              key={page.id}
              id={page.id}
              handleLabel={t('surveys.dragPage', { name: page.name || t('surveys.pageNumber', { n: p + 1 }) })}
              testId="survey-page"
            >
              <PageEditor form={form} page={page} index={p} errors={errors} readOnly={readOnly} />
            </SortableItem>
          ))}
        </Stack>
      </SortableList>
      {!readOnly && (
        <Group>
          <Button
            variant="default"
            onClick={() =>
              form.insertListItem(
                'pages',
                newPage(form.getValues().pages, (n) => t('surveys.pageNumber', { n })),
              )
            }
          >
            {t('surveys.addPage')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function PageEditor(props: {
  form: SurveyForm;
  page: FormPage;
  index: number;
  errors: Record<string, string>;
  readOnly: boolean;
}) {
  const { t } = useTranslation();
  const { form, page, index: p, errors, readOnly } = props;
  const at = `pages.${p}`;
  const componentName = (id: string) => {
    const c = page.components.find((x) => x.id === id);
    return c?.kind === 'QUESTION' ? c.text || t('surveys.question') : t('surveys.infoReview');
  };
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Group align="flex-end" wrap="wrap">
          <TextInput
            id={builderFieldId(`${at}.name`)}
            label={t('surveys.pageName')}
            withAsterisk
            value={page.name}
            error={errors[`${at}.name`]}
            readOnly={readOnly}
            onChange={(e) => form.setFieldValue(`${at}.name`, e.currentTarget.value)}
            style={{ flex: 1, minWidth: 200 }}
          />
          {!readOnly && (
            <Button variant="subtle" color="red" onClick={() => form.removeListItem('pages', p)}>
              {t('surveys.removePage')}
            </Button>
          )}
        </Group>
        {page.components.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('surveys.noComponents')}
          </Text>
        )}
        <SortableList
          ids={page.components.map((c) => c.id)}
          nameOf={componentName}
          onMove={(from, to) =>
            form.setFieldValue(`${at}.components`, moveItem(form.getValues().pages[p]!.components, from, to))
          }
        >
          <Stack gap="sm">
            {page.components.map((component, c) => (
              <SortableItem
                key={component.id}
                id={component.id}
                handleLabel={t('surveys.dragComponent', { name: componentName(component.id) })}
                testId="survey-component"
              >
                <ComponentEditor
                  form={form}
                  component={component}
                  at={`${at}.components.${c}`}
                  onRemove={() => form.removeListItem(`${at}.components`, c)}
                  errors={errors}
                  readOnly={readOnly}
                />
              </SortableItem>
            ))}
          </Stack>
        </SortableList>
        {!readOnly && (
          <Group>
            <Menu position="bottom-start">
              <Menu.Target>
                <Button variant="default" size="sm">
                  {t('surveys.addQuestion')}
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                {questionTypes.map((type) => (
                  <Menu.Item key={type} onClick={() => form.insertListItem(`${at}.components`, newQuestion(type))}>
                    {t(`surveys.questionTypes.${type}`)}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
            <Button
              variant="default"
              size="sm"
              onClick={() => form.insertListItem(`${at}.components`, newInfoReview(t('surveys.infoReviewDefault')))}
            >
              {t('surveys.addInfoReview')}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

function ComponentEditor(props: {
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
            w={220}
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
        <TextInput
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
