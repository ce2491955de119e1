import '@mantine/dropzone/styles.css';
import { useState } from 'react';
import { Button, Group, Paper, Progress, SegmentedControl, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { useForm } from '@mantine/form';
import { useNavigate } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import {
  MAX_RESOURCE_BYTES,
  MAX_RESOURCE_UPLOAD_BYTES,
  type CreateResourceBody,
  type UpdateResourceBody,
} from '@pss/contract';
import { PageHeader } from '../../components/page-header';
import { errorMessage } from '../../lib/api-error';
import { useDeferredContractResolver } from '../../lib/deferred-contract-resolver';
import { listFieldError, saveErrors, type FieldErrors } from '../../lib/form-errors';
import { formatBytes } from '../../lib/format';
import { toastError, toastSuccess } from '../../lib/toasts';
import { CategoryField } from './category-field';
import { useCreateResource, useUploadResource } from './resources-api';

const MB = 1024 * 1024;
type Kind = 'FILE' | 'URL' | 'TEXT';

interface NewResourceValues {
  kind: Kind;
  file: File | null;
  name: string;
  link: string;
  details: string;
  category_ids: string[];
}

const fileStem = (file: File) => file.name.replace(/\.[^.]+$/, '');

/** A file's details, saved once it is uploaded: named after the file unless named here. */
const fileBody = (values: NewResourceValues, file: File): Omit<UpdateResourceBody, 'link'> => ({
  name: values.name.trim() || fileStem(file),
  details: values.details,
  category_ids: values.category_ids,
});

/** A link or a text, created in one call. */
const writtenBody = (values: NewResourceValues, kind: 'URL' | 'TEXT'): CreateResourceBody => ({
  name: values.name,
  source_type: kind,
  link: kind === 'URL' ? values.link : null,
  details: values.details,
  category_ids: values.category_ids,
});

/** A new resource: a file dropped (uploaded with its progress), a link or a text. */
export function NewResourcePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // The server's checks, made here first: a file's details as an edit, a link or text as a creation.
  const fileSchema = useDeferredContractResolver<Omit<UpdateResourceBody, 'link'>>((s) => s.updateResourceBody, t);
  const writtenSchema = useDeferredContractResolver<CreateResourceBody>((s) => s.createResourceBody, t);
  const form = useForm<NewResourceValues>({
    mode: 'controlled',
    initialValues: { kind: 'FILE', file: null, name: '', link: '', details: '', category_ids: [] },
    validate: (values): FieldErrors => {
      if (values.kind !== 'FILE') return writtenSchema.validate(writtenBody(values, values.kind));
      return values.file ? fileSchema.validate(fileBody(values, values.file)) : { file: t('resources.chooseFile') };
    },
  });
  const { kind, file } = form.values;
  const [progress, setProgress] = useState<number | null>(null);
  const create = useCreateResource();
  const upload = useUploadResource();

  async function save() {
    await Promise.all([fileSchema.ready(), writtenSchema.ready()]);
    const checked = form.validate();
    if (checked.hasErrors) {
      // A file not yet chosen says so beside the drop zone alone.
      if (!checked.errors.file) toastError(t('errors.VALIDATION_ERROR'));
      return;
    }
    const values = form.getValues();
    try {
      let saved;
      if (values.kind === 'FILE' && values.file) {
        setProgress(0);
        saved = await upload.mutateAsync({
          file: values.file,
          body: fileBody(values, values.file),
          onProgress: setProgress,
        });
      } else {
        saved = await create.mutateAsync(writtenBody(values, values.kind === 'URL' ? 'URL' : 'TEXT'));
      }
      toastSuccess(t('resources.created', { name: saved.name }));
      navigate(`/resource-library/${saved.id}`);
    } catch (error) {
      // A link the library holds already (however written) is said beside the link.
      const { fields, form: message } = saveErrors(error, t, { URL_ALREADY_EXISTS: 'link' });
      form.setErrors(fields);
      toastError(fields.file ?? message ?? errorMessage(error, t));
    } finally {
      setProgress(null);
    }
  }

  return (
    <Stack maw={760}>
      <PageHeader
        title={t('resources.newTitle')}
        crumbs={[{ label: t('resources.title'), to: '/resource-library' }, { label: t('resources.newTitle') }]}
      />
      <Paper withBorder p="lg">
        <Stack>
          <div>
            <Text size="sm" fw={500} mb={4} id="resource-kind">
              {t('resources.kind')}
            </Text>
            <SegmentedControl
              aria-labelledby="resource-kind"
              value={kind}
              onChange={(value) => form.setFieldValue('kind', value as Kind)}
              data={(['FILE', 'URL', 'TEXT'] as const).map((value) => ({
                value,
                label: t(`resources.kinds.${value}`),
              }))}
            />
          </div>
          {kind === 'FILE' && (
            <Stack gap="xs">
              <Dropzone
                onDrop={(files) => {
                  const chosen = files[0] ?? null;
                  form.setFieldValue('file', chosen);
                  if (chosen && !form.getValues().name) form.setFieldValue('name', fileStem(chosen));
                }}
                onReject={() => toastError(t('resources.tooLarge', { max: MAX_RESOURCE_UPLOAD_BYTES / MB }))}
                maxSize={MAX_RESOURCE_UPLOAD_BYTES}
                multiple={false}
                accept={['application/pdf', 'image/jpeg', 'image/png', 'video/mp4', 'video/quicktime']}
                data-testid="resource-dropzone"
              >
                <Stack gap={4} align="center" py="lg">
                  <Text fw={500}>{t('resources.dropTitle')}</Text>
                  <Text size="sm" c="dimmed">
                    {t('resources.dropHelp', {
                      pdf: MAX_RESOURCE_BYTES.PDF / MB,
                      image: MAX_RESOURCE_BYTES.IMAGE / MB,
                      video: MAX_RESOURCE_BYTES.VIDEO / MB,
                    })}
                  </Text>
                </Stack>
              </Dropzone>
              {file && (
                <Text size="sm">{t('resources.chosen', { name: file.name, size: formatBytes(file.size) })}</Text>
              )}
              {form.errors.file && (
                <Text size="sm" c="red" role="alert">
                  {form.errors.file}
                </Text>
              )}
              {progress !== null && file && (
                <Stack gap={2}>
                  <Progress
                    value={progress * 100}
                    aria-label={t('resources.uploadProgress', { name: file.name, percent: Math.round(progress * 100) })}
                  />
                  <Text size="xs" role="status">
                    {t('resources.uploadProgress', { name: file.name, percent: Math.round(progress * 100) })}
                  </Text>
                </Stack>
              )}
            </Stack>
          )}
          <TextInput label={t('resources.name')} {...form.getInputProps('name')} required={kind !== 'FILE'} />
          {kind === 'URL' && (
            <TextInput label={t('resources.link')} {...form.getInputProps('link')} placeholder="https://" required />
          )}
          <Textarea
            label={kind === 'TEXT' ? t('resources.text') : t('resources.details')}
            {...form.getInputProps('details')}
            autosize
            minRows={kind === 'TEXT' ? 6 : 3}
            required={kind === 'TEXT'}
          />
          <CategoryField
            value={form.values.category_ids}
            onChange={(ids) => form.setFieldValue('category_ids', ids)}
            error={listFieldError(form.errors, 'category_ids')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => navigate('/resource-library')}>
              {t('common.cancel')}
            </Button>
            <Button onClick={() => void save()} loading={create.isPending || upload.isPending}>
              {t('resources.create')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}
