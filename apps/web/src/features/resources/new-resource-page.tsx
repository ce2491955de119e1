import '@mantine/dropzone/styles.css';
import { useState } from 'react';
import { Button, Group, Paper, Progress, SegmentedControl, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { useNavigate } from '../../lib/router';
import { useTranslation } from '../../lib/i18n';
import { MAX_RESOURCE_BYTES, MAX_RESOURCE_UPLOAD_BYTES } from '@pss/contract';
import { PageHeader } from '../../components/page-header';
import { errorMessage } from '../../lib/api-error';
import { saveErrors } from '../../lib/form-errors';
import { formatBytes } from '../../lib/format';
import { toastError, toastSuccess } from '../../lib/toasts';
import { CategoryField } from './category-field';
import { useCreateResource, useUploadResource } from './resources-api';

const MB = 1024 * 1024;
type Kind = 'FILE' | 'URL' | 'TEXT';

/** A new resource: a file dropped (uploaded with its progress), a link or a text. */
export function NewResourcePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [kind, setKind] = useState<Kind>('FILE');
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [link, setLink] = useState('');
  const [details, setDetails] = useState('');
  const [categoryIds, setCategoryIds] = useState<string[]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useCreateResource();
  const upload = useUploadResource();

  async function save() {
    setErrors({});
    try {
      let saved;
      if (kind === 'FILE') {
        if (!file) return setErrors({ file: t('resources.chooseFile') });
        setProgress(0);
        saved = await upload.mutateAsync({
          file,
          body: { name: name.trim() || file.name.replace(/\.[^.]+$/, ''), details, category_ids: categoryIds },
          onProgress: setProgress,
        });
      } else {
        saved = await create.mutateAsync({
          name,
          source_type: kind,
          link: kind === 'URL' ? link : null,
          details,
          category_ids: categoryIds,
        });
      }
      toastSuccess(t('resources.created', { name: saved.name }));
      navigate(`/resource-library/${saved.id}`);
    } catch (error) {
      const { fields, form } = saveErrors(error, t);
      setErrors(fields);
      toastError(fields.file ?? form ?? errorMessage(error, t));
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
              onChange={(value) => setKind(value as Kind)}
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
                  setFile(chosen);
                  if (chosen && !name) setName(chosen.name.replace(/\.[^.]+$/, ''));
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
              {errors.file && (
                <Text size="sm" c="red" role="alert">
                  {errors.file}
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
          <TextInput
            label={t('resources.name')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.name}
            required={kind !== 'FILE'}
          />
          {kind === 'URL' && (
            <TextInput
              label={t('resources.link')}
              value={link}
              onChange={(e) => setLink(e.currentTarget.value)}
              error={errors.link}
              placeholder="https://"
              required
            />
          )}
          <Textarea
            label={kind === 'TEXT' ? t('resources.text') : t('resources.details')}
            value={details}
            onChange={(e) => setDetails(e.currentTarget.value)}
            error={errors.details}
            autosize
            minRows={kind === 'TEXT' ? 6 : 3}
            required={kind === 'TEXT'}
          />
          <CategoryField value={categoryIds} onChange={setCategoryIds} error={errors.category_ids} />
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
