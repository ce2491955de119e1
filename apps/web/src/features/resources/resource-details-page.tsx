import { useEffect, useEffectEvent, useState } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import { QueryError } from '../../components/query-error';
import type { Resource, UpdateResourceBody } from '@pss/contract';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { PageHeader } from '../../components/page-header';
import { ResourceView } from '../../components/resource-view';
import { errorMessage } from '../../lib/api-error';
import { useDeferredContractResolver } from '../../lib/deferred-contract-resolver';
import { listFieldError, saveErrors } from '../../lib/form-errors';
import { toastError, toastSuccess } from '../../lib/toasts';
import { CategoryField } from './category-field';
import {
  resourceFileQueryOptions,
  resourceQueryOptions,
  resourceUsesQueryOptions,
  useDeleteResources,
  useDuplicateResource,
  useUpdateResource,
} from './resources-api';

/** One resource: its preview, its details to edit, where it is used; duplicate and delete. */
export function ResourceDetailsPage() {
  const { id = '' } = useParams();
  const resource = useQuery(resourceQueryOptions(id));
  if (resource.error) {
    return <QueryError error={resource.error} onRetry={() => void resource.refetch()} />;
  }
  if (!resource.data) return <Skeleton h={400} />;
  return <ResourceDetails key={resource.data.id} resource={resource.data} />;
}

interface DetailsValues {
  name: string;
  link: string;
  details: string;
  category_ids: string[];
}

function ResourceDetails({ resource }: { resource: Resource }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const file = useQuery({
    ...resourceFileQueryOptions(resource.id, resource.file?.thumbnail_status),
    enabled: Boolean(resource.file),
  });
  const uses = useQuery(resourceUsesQueryOptions(resource.id));
  const update = useUpdateResource(resource.id);
  const duplicate = useDuplicateResource();
  const remove = useDeleteResources();
  const schema = useDeferredContractResolver<UpdateResourceBody>((s) => s.updateResourceBody, t);
  const toBody = (values: DetailsValues): UpdateResourceBody => ({
    ...values,
    link: resource.source_type === 'URL' ? values.link : null,
  });
  const form = useForm<DetailsValues>({
    mode: 'controlled',
    initialValues: {
      name: resource.name,
      link: resource.link ?? '',
      details: resource.details,
      category_ids: resource.categories.map((c) => c.id),
    },
    validate: (values) => schema.validate(toBody(values)),
  });
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [duplicateLink, setDuplicateLink] = useState<string | null>(null);
  // The name as saved (trimmed) or renamed elsewhere shows in its field.
  const showName = useEffectEvent((name: string) => form.setFieldValue('name', name));
  useEffect(() => showName(resource.name), [resource.name]);

  async function save() {
    await schema.ready();
    const checked = form.validate();
    if (checked.hasErrors) return toastError(t('errors.VALIDATION_ERROR'));
    try {
      await update.mutateAsync(toBody(form.getValues()));
      toastSuccess(t('resources.saved'));
    } catch (error) {
      const { fields, form: message } = saveErrors(error, t, { URL_ALREADY_EXISTS: 'link' });
      form.setErrors(fields);
      toastError(message ?? errorMessage(error, t));
    }
  }

  async function makeCopy(newLink?: string) {
    try {
      const copy = await duplicate.mutateAsync({ id: resource.id, link: newLink });
      toastSuccess(t('resources.duplicated', { name: copy.name }));
      setDuplicateLink(null);
      navigate(`/resource-library/${copy.id}`);
    } catch (error) {
      toastError(errorMessage(error, t));
    }
  }

  async function deleteIt() {
    try {
      await remove.mutateAsync({ ids: [resource.id] });
      toastSuccess(t('resources.deleted', { count: 1 }));
      navigate('/resource-library');
    } catch (error) {
      setDeleting(false);
      setDeleteError(errorMessage(error, t));
    }
  }

  return (
    <Stack>
      <PageHeader
        title={resource.name}
        crumbs={[{ label: t('resources.title'), to: '/resource-library' }, { label: resource.name }]}
        action={
          <Group gap="xs">
            <Button
              variant="default"
              onClick={() => (resource.source_type === 'URL' ? setDuplicateLink('') : void makeCopy())}
              loading={duplicate.isPending}
            >
              {t('resources.duplicate')}
            </Button>
            <Button color="red" variant="light" onClick={() => setDeleting(true)}>
              {t('resources.delete')}
            </Button>
          </Group>
        }
      />
      {deleteError && (
        <Alert
          color="red"
          role="alert"
          withCloseButton
          closeButtonLabel={t('common.close')}
          onClose={() => setDeleteError(null)}
        >
          {deleteError}
        </Alert>
      )}
      <Paper withBorder p="lg" component="section" aria-label={t('resources.preview')}>
        {resource.file && !file.data ? (
          <Skeleton h={200} />
        ) : (
          <ResourceView
            name={resource.name}
            type={resource.source_type}
            details={resource.details}
            link={resource.link}
            file={resource.file}
            view={file.data?.view ?? null}
            download={file.data?.download ?? null}
            pdfHeight={480}
          />
        )}
        {resource.file && (
          <Text size="sm" c="dimmed" mt="xs">
            {resource.file.page_count ? t('resources.pages', { count: resource.file.page_count }) : ''}
            {resource.file.width ? ` ${resource.file.width} × ${resource.file.height}` : ''}
          </Text>
        )}
      </Paper>
      <Paper withBorder p="lg" component="section" aria-labelledby="resource-edit">
        <Stack>
          <Title order={4} id="resource-edit">
            {t('resources.edit')}
          </Title>
          <TextInput label={t('resources.name')} {...form.getInputProps('name')} required />
          {resource.source_type === 'URL' && (
            <TextInput label={t('resources.link')} {...form.getInputProps('link')} required />
          )}
          <Textarea
            label={resource.source_type === 'TEXT' ? t('resources.text') : t('resources.details')}
            {...form.getInputProps('details')}
            autosize
            minRows={3}
          />
          <CategoryField
            value={form.values.category_ids}
            onChange={(ids) => form.setFieldValue('category_ids', ids)}
            error={listFieldError(form.errors, 'category_ids')}
          />
          <Group justify="flex-end">
            <Button onClick={() => void save()} loading={update.isPending}>
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </Paper>
      <Paper withBorder p="lg" component="section" aria-labelledby="resource-uses">
        <Stack>
          <Group justify="space-between">
            <Title order={4} id="resource-uses">
              {t('resources.usedIn')}
            </Title>
            <Badge variant="light" data-testid="attachment-status">
              {t(`resources.status.${resource.attachment_status}`)}
            </Badge>
          </Group>
          {uses.data && uses.data.cases.length === 0 && <Text size="sm">{t('resources.usedInEmpty')}</Text>}
          {uses.data && uses.data.cases.length > 0 && (
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('resources.case')}</Table.Th>
                  <Table.Th>{t('resources.home')}</Table.Th>
                  <Table.Th>{t('resources.client')}</Table.Th>
                  <Table.Th>{t('resources.caseStatus')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {uses.data.cases.map((c) => (
                  <Table.Tr key={c.case_id}>
                    <Table.Td>
                      {c.project_id && c.client_id ? (
                        <Anchor
                          component={Link}
                          to={`/project-management/clients/${c.client_id}/projects/${c.project_id}/cases/case-details/${c.case_id}`}
                        >
                          {c.case_name}
                        </Anchor>
                      ) : c.module_id ? (
                        <Anchor component={Link} to={`/module-library/${c.module_id}/cases/case-details/${c.case_id}`}>
                          {c.case_name}
                        </Anchor>
                      ) : (
                        c.case_name
                      )}
                    </Table.Td>
                    <Table.Td>{c.project_name ?? c.module_name}</Table.Td>
                    <Table.Td>{c.client_name ?? '—'}</Table.Td>
                    <Table.Td>{c.case_status}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          {uses.data && uses.data.clients.length > 0 && (
            <Text size="sm">
              {t('resources.clients')}: {uses.data.clients.map((c) => c.name).join(', ')}
            </Text>
          )}
        </Stack>
      </Paper>
      <ConfirmDialog
        opened={deleting}
        title={t('resources.deleteOneTitle', { name: resource.name })}
        message={t('resources.deleteMessage')}
        confirmLabel={t('resources.delete')}
        busy={remove.isPending}
        onConfirm={() => void deleteIt()}
        onClose={() => setDeleting(false)}
      />
      <Modal
        opened={duplicateLink !== null}
        onClose={() => setDuplicateLink(null)}
        title={t('resources.duplicateLinkTitle')}
        centered
      >
        <Stack>
          <Text size="sm">{t('resources.duplicateLinkHelp')}</Text>
          <TextInput
            label={t('resources.link')}
            value={duplicateLink ?? ''}
            onChange={(e) => setDuplicateLink(e.currentTarget.value)}
          />
          <Group justify="flex-end">
            <Button onClick={() => void makeCopy(duplicateLink ?? undefined)} loading={duplicate.isPending}>
              {t('resources.duplicate')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
