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
import { useTranslation } from 'react-i18next';
import { MAX_CASE_IMAGE_BYTES, type CaseDocument } from '@pss/contract';
import type { CaseHome } from '../../lib/case-home';
import { RichTextField } from '../../components/rich-text-field';
import { errorMessage } from '../../lib/api-error';
import { toastError } from '../../lib/toasts';
import { EditorSection, fieldId, type SectionProps } from './case-editor-fields';
import { moveItem, newId, removeGrouper } from './case-form';
import { caseImageQueryOptions, useCaseImage } from './cases-api';

export function BackgroundSection(props: SectionProps & { saved: CaseDocument; home: CaseHome }) {
  const { t } = useTranslation();
  const { form, errors, readOnly, onChange, home } = props;
  const season = home.seasons.find((s) => s.id === form.season_id);
  return (
    <EditorSection id="case-background" title={t('cases.sections.background')} help={t('cases.backgroundHelp')}>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          id={fieldId('name')}
          label={t('cases.name')}
          required
          value={form.name}
          error={errors.name}
          onChange={(e) => {
            const name = e.currentTarget.value;
            onChange((f) => ({ ...f, name }));
          }}
        />
        <Select
          id={fieldId('disease_type_id')}
          label={t('cases.diseaseType')}
          required
          data={home.disease_types.map((d) => ({ value: d.id, label: d.name }))}
          value={form.disease_type_id}
          error={errors.disease_type_id}
          onChange={(value) => onChange((f) => ({ ...f, disease_type_id: value }))}
        />
        <TextInput
          id={fieldId('patient_name')}
          label={t('cases.patientName')}
          required
          value={form.patient_name}
          error={errors.patient_name}
          onChange={(e) => {
            const patient_name = e.currentTarget.value;
            onChange((f) => ({ ...f, patient_name }));
          }}
        />
        <NumberInput
          id={fieldId('patient_age')}
          label={t('cases.patientAge')}
          required
          min={0}
          max={130}
          allowDecimal={false}
          allowNegative={false}
          value={form.patient_age ?? ''}
          error={errors.patient_age}
          onChange={(value) =>
            onChange((f) => ({
              ...f,
              patient_age: typeof value === 'number' ? value : value === '' ? null : Number(value),
            }))
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
              value={form.season_id}
              error={errors.season_id}
              onChange={(value) =>
                onChange((f) => ({
                  ...f,
                  season_id: value,
                  round_number: value === f.season_id ? f.round_number : null,
                }))
              }
            />
            <Select
              id={fieldId('round_number')}
              label={t('cases.round')}
              clearable
              disabled={!form.season_id}
              data={(season?.rounds ?? []).map((r) => ({
                value: String(r.number),
                label: t('cases.roundOption', { number: r.number, start: r.start_date, end: r.end_date }),
              }))}
              value={form.round_number ? String(form.round_number) : null}
              error={errors.round_number}
              onChange={(value) => onChange((f) => ({ ...f, round_number: value ? Number(value) : null }))}
            />
          </>
        )}
      </SimpleGrid>
      <RichTextField
        id={fieldId('reason_for_encounter')}
        label={t('cases.reasonForEncounter')}
        required
        value={form.reason_for_encounter}
        error={errors.reason_for_encounter}
        readOnly={readOnly}
        onChange={(html) => onChange((f) => ({ ...f, reason_for_encounter: html }))}
      />
      <PatientImage saved={props.saved} readOnly={readOnly} />
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
          <Image src={image.data} alt={t('cases.patientImageAlt')} w={160} h={160} fit="cover" radius="sm" />
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

export function DetailsSectionsEditor({ form, errors, readOnly, onChange }: SectionProps) {
  const { t } = useTranslation();
  return (
    <EditorSection
      id="case-details-sections"
      title={t('cases.sections.details')}
      help={t('cases.detailsHelp')}
      action={
        !readOnly && (
          <Button
            variant="default"
            onClick={() =>
              onChange((f) => ({
                ...f,
                details_sections: [...f.details_sections, { id: newId(), name: '', text: '' }],
              }))
            }
          >
            {t('cases.addSection')}
          </Button>
        )
      }
    >
      {form.details_sections.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('cases.noSections')}
        </Text>
      )}
      {form.details_sections.map((section, i) => {
        const label = t('cases.sectionN', { n: i + 1 });
        return (
          <Paper key={section.id} withBorder p="md" bg="gray.0">
            <Stack gap="sm">
              <Group justify="space-between" align="flex-end">
                <TextInput
                  id={fieldId(`details_sections.${i}.name`)}
                  label={t('cases.sectionName', { n: i + 1 })}
                  required
                  flex={1}
                  value={section.name}
                  error={errors[`details_sections.${i}.name`]}
                  onChange={(e) => {
                    const name = e.currentTarget.value;
                    onChange((f) => ({
                      ...f,
                      details_sections: f.details_sections.map((s, j) => (j === i ? { ...s, name } : s)),
                    }));
                  }}
                />
                <ItemControls
                  label={label}
                  index={i}
                  count={form.details_sections.length}
                  readOnly={readOnly}
                  onMove={(to) => onChange((f) => ({ ...f, details_sections: moveItem(f.details_sections, i, to) }))}
                  onRemove={() =>
                    onChange((f) => ({ ...f, details_sections: f.details_sections.filter((_, j) => j !== i) }))
                  }
                />
              </Group>
              <RichTextField
                id={fieldId(`details_sections.${i}.text`)}
                label={t('cases.sectionText', { n: i + 1 })}
                required
                value={section.text}
                error={errors[`details_sections.${i}.text`]}
                readOnly={readOnly}
                onChange={(html) =>
                  onChange((f) => ({
                    ...f,
                    details_sections: f.details_sections.map((s, j) => (j === i ? { ...s, text: html } : s)),
                  }))
                }
              />
            </Stack>
          </Paper>
        );
      })}
    </EditorSection>
  );
}

export function GroupersEditor({ form, errors, readOnly, onChange }: SectionProps) {
  const { t } = useTranslation();
  return (
    <EditorSection
      id="case-groupers"
      title={t('cases.sections.groupers')}
      help={t('cases.groupersHelp')}
      action={
        !readOnly && (
          <Button
            variant="default"
            onClick={() => onChange((f) => ({ ...f, groupers: [...f.groupers, { id: newId(), name: '' }] }))}
          >
            {t('cases.addGrouper')}
          </Button>
        )
      }
    >
      {form.groupers.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('cases.noGroupers')}
        </Text>
      )}
      {form.groupers.map((grouper, i) => (
        <Group key={grouper.id} align="flex-end" id={fieldId(`groupers.${i}`)}>
          <TextInput
            id={fieldId(`groupers.${i}.name`)}
            label={t('cases.grouperName', { n: i + 1 })}
            required
            flex={1}
            value={grouper.name}
            error={errors[`groupers.${i}.name`] ?? errors[`groupers.${i}`]}
            onChange={(e) => {
              const name = e.currentTarget.value;
              onChange((f) => ({ ...f, groupers: f.groupers.map((g, j) => (j === i ? { ...g, name } : g)) }));
            }}
          />
          <ItemControls
            label={t('cases.grouperN', { n: i + 1 })}
            index={i}
            count={form.groupers.length}
            readOnly={readOnly}
            onMove={(to) => onChange((f) => ({ ...f, groupers: moveItem(f.groupers, i, to) }))}
            onRemove={() => onChange((f) => removeGrouper(f, i))}
          />
        </Group>
      ))}
    </EditorSection>
  );
}

export function FeedbackSection({ form, errors, readOnly, onChange }: SectionProps) {
  const { t } = useTranslation();
  return (
    <EditorSection id="case-feedback" title={t('cases.sections.feedback')} help={t('cases.feedbackHelp')}>
      <Radio.Group
        id={fieldId('feedback_type')}
        label={t('cases.feedbackType')}
        required
        value={form.feedback_type ?? ''}
        error={errors.feedback_type}
        onChange={(value) =>
          onChange((f) => ({ ...f, feedback_type: value as 'PERSONALIZED_FEEDBACK' | 'GENERAL_FEEDBACK' }))
        }
      >
        <Stack gap="xs" mt="xs">
          <Radio value="PERSONALIZED_FEEDBACK" label={t('cases.feedbackTypes.PERSONALIZED_FEEDBACK')} />
          <Radio value="GENERAL_FEEDBACK" label={t('cases.feedbackTypes.GENERAL_FEEDBACK')} />
        </Stack>
      </Radio.Group>
      <RichTextField
        id={fieldId('explanation')}
        label={t('cases.fields.explanation')}
        required={form.feedback_type === 'GENERAL_FEEDBACK'}
        value={form.explanation}
        error={errors.explanation}
        readOnly={readOnly}
        onChange={(html) => onChange((f) => ({ ...f, explanation: html }))}
      />
      <RichTextField
        id={fieldId('test_results')}
        label={t('cases.fields.test_results')}
        value={form.test_results}
        readOnly={readOnly}
        onChange={(html) => onChange((f) => ({ ...f, test_results: html }))}
      />
      <RichTextField
        id={fieldId('references')}
        label={t('cases.fields.references')}
        value={form.references}
        readOnly={readOnly}
        onChange={(html) => onChange((f) => ({ ...f, references: html }))}
      />
    </EditorSection>
  );
}
