import {
  Button,
  FileButton,
  Group,
  Image,
  NumberInput,
  Paper,
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
import { placeInSeason } from './case-form';
import { caseImageQueryOptions, useCaseImage } from './cases-api';
import '../../lib/i18n/case';

/** Case Setup's first section: the patient, the case's place in a season, the reason they came, their image. */
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
              clearable={!readOnly}
              data={home.seasons.map((s) => ({ value: s.id, label: s.name }))}
              value={values.season_id}
              error={errors.season_id}
              onChange={(value) => form.setValues(placeInSeason(form.getValues(), value))}
            />
            <Select
              id={fieldId('round_number')}
              label={t('cases.round')}
              clearable={!readOnly}
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
