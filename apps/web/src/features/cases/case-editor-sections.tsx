import {
  ActionIcon,
  Button,
  FileButton,
  Group,
  Image,
  NumberInput,
  Paper,
  Radio,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n';
import { MAX_CASE_IMAGE_BYTES, MAX_IMAGE_ALT, type CaseDocument } from '@pss/contract';
import type { CaseHome } from '../../lib/case-home';
import { RichTextField } from '../../components/lazy-rich-text-field';
import { errorMessage } from '../../lib/api-error';
import { toastError } from '../../lib/toasts';
import { EditorSection, fieldId, fieldProps, type SectionProps } from './case-editor-fields';
import { newId, placeInSeason, removeGrouper } from './case-form';
import { caseImageQueryOptions, useCaseImage } from './cases-api';

export function BackgroundSection(props: SectionProps & { saved: CaseDocument; home: CaseHome }) {
  const { t } = useTranslation();
  const { form, errors, readOnly, home } = props;
  const values = form.values;
  const season = home.seasons.find((s) => s.id === values.season_id);
  return (
    <EditorSection id="case-background" title={t('cases.sections.background')} help={t('cases.backgroundHelp')}>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label={t('cases.name')} required {...fieldProps(form, errors, 'name')} />
        <Select
          label={t('cases.diseaseType')}
          required
          data={home.disease_types.map((d) => ({ value: d.id, label: d.name }))}
          {...fieldProps(form, errors, 'disease_type_id')}
        />
        <TextInput label={t('cases.patientName')} required {...fieldProps(form, errors, 'patient_name')} />
        <NumberInput
          id={fieldId('patient_age')}
          label={t('cases.patientAge')}
          required
          min={0}
          max={130}
          allowDecimal={false}
          allowNegative={false}
          value={values.patient_age ?? ''}
          error={errors.patient_age}
          onChange={(value) =>
            form.setFieldValue('patient_age', typeof value === 'number' ? value : value === '' ? null : Number(value))
          }
        />
        {home.kind === 'project' && (
          <>
            <Select
              id={fieldId('season_id')}
              label={t('cases.season')}
              description={t('cases.seasonHelp')}
              clearable
              data={home.seasons.map((s) => ({ value: s.id, label: s.name }))}
              value={values.season_id}
              error={errors.season_id}
              onChange={(value) => form.setValues(placeInSeason(form.getValues(), value))}
            />
            <Select
              id={fieldId('round_number')}
              label={t('cases.round')}
              clearable
              disabled={!values.season_id}
              data={(season?.rounds ?? []).map((r) => ({
                value: String(r.number),
                label: t('cases.roundOption', { number: r.number, start: r.start_date, end: r.end_date }),
              }))}
              value={values.round_number ? String(values.round_number) : null}
              error={errors.round_number}
              onChange={(value) => form.setFieldValue('round_number', value ? Number(value) : null)}
            />
          </>
        )}
      </SimpleGrid>
      <RichTextField
        id={fieldId('reason_for_encounter')}
        label={t('cases.reasonForEncounter')}
        required
        value={values.reason_for_encounter}
        error={errors.reason_for_encounter}
        readOnly={readOnly}
        onChange={(html) => form.setFieldValue('reason_for_encounter', html)}
      />
      <PatientImage saved={props.saved} readOnly={readOnly} />
      <TextInput
        label={t('cases.imageAlt')}
        description={t('cases.imageAltHelp')}
        maxLength={MAX_IMAGE_ALT}
        {...fieldProps(form, errors, 'image_alt')}
      />
    </EditorSection>
  );
}

function PatientImage({ saved, readOnly }: { saved: CaseDocument; readOnly: boolean }) {
  const { t } = useTranslation();
  const image = useQuery(caseImageQueryOptions(saved.id, saved.updated_at, saved.has_image));
  const upload = useCaseImage(saved.id);
  async function set(file: File | null) {
    if (file && file.size > MAX_CASE_IMAGE_BYTES) return toastError(t('cases.imageTooLarge'));
    try {
      await upload.mutateAsync(file);
    } catch (error) {
      toastError(errorMessage(error, t));
    }
  }
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {t('cases.patientImage')}
      </Text>
      <Group align="flex-start">
        {saved.has_image && image.data ? (
          <Image
            src={image.data}
            alt={saved.image_alt || t('common.caseView.patientImageAlt')}
            w={160}
            h={160}
            fit="cover"
            radius="sm"
          />
        ) : (
          <Paper withBorder w={160} h={96} p="xs">
            <Text size="sm" c="dimmed">
              {t('cases.noImage')}
            </Text>
          </Paper>
        )}
        {!readOnly && (
          <Stack gap="xs">
            <FileButton onChange={(file) => void set(file)} accept="image/png,image/jpeg">
              {(p) => (
                <Button {...p} variant="default" size="xs" loading={upload.isPending}>
                  {saved.has_image ? t('cases.replaceImage') : t('cases.uploadImage')}
                </Button>
              )}
            </FileButton>
            {saved.has_image && (
              <Button variant="subtle" color="red" size="xs" onClick={() => void set(null)}>
                {t('cases.removeImage')}
              </Button>
            )}
            <Text size="xs" c="dimmed">
              {t('cases.imageHelp')}
            </Text>
          </Stack>
        )}
      </Group>
    </Stack>
  );
}

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
