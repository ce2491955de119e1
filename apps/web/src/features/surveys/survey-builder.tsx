import { Button, Group, Menu, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from '../../lib/i18n';
import { questionTypes } from '@pss/contract';
import {
  builderFieldId,
  moveItem,
  newInfoReview,
  newPage,
  newQuestion,
  type FormPage,
  type SurveyForm,
} from './survey-form';
import { SortableItem, SortableList } from './sortable-list';
import { ComponentEditor } from './survey-component-editor';

/** The pages of a template, each with its components, reordered by drag or keyboard. */
export function SurveyBuilder(props: { form: SurveyForm; errors: Record<string, string>; readOnly: boolean }) {
  const { t } = useTranslation();
  const { form, errors, readOnly } = props;
  const { pages } = form.values;
  const pageName = (id: string) => pages.find((p) => p.id === id)?.name || t('surveys.pageNumber', { n: 0 });

  return (
    <Stack gap="md">
      {pages.length === 0 && (
        // Where the problem list's "add a page" link leads (an empty survey cannot be saved).
        <Text id={builderFieldId('pages')} tabIndex={-1} c={errors.pages ? 'red.8' : 'dimmed'}>
          {errors.pages ?? t('surveys.noPages')}
        </Text>
      )}
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
              locked={readOnly}
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
          <Text
            id={builderFieldId(`${at}.components`)}
            tabIndex={-1}
            size="sm"
            c={errors[`${at}.components`] ? 'red.8' : 'dimmed'}
          >
            {errors[`${at}.components`] ?? t('surveys.noComponents')}
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
                locked={readOnly}
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
