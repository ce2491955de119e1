import { useState } from 'react';
import { Button, Group, Paper, Select, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { createCaseBody, type CreateCaseBody } from '@pss/contract';
import { Link, useNavigate } from '../../lib/screen-router';
import { useCaseHome } from '../../lib/case-home';
import { useTranslation } from '../../lib/i18n';
import { FormError } from '../../components/form-parts';
import { contractResolver, showSaveErrors } from '../../lib/form-errors';
import { useCreateCase } from './cases-api';

/** Case Setup, first step: a name and a disease type; the editor takes it from there. */
export function NewCasePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const home = useCaseHome();
  const create = useCreateCase();
  const body = (values: { name: string; disease_type_id: string | null }): CreateCaseBody => ({
    ...(home.kind === 'project' ? { project_id: home.id } : { module_id: home.id }),
    ...values,
  });
  const form = useForm({
    initialValues: {
      name: '',
      disease_type_id: home.disease_types.length === 1 ? home.disease_types[0]!.id : null,
    },
    validate: contractResolver(createCaseBody, t, body),
    transformValues: body,
  });
  const [formError, setFormError] = useState<string | null>(null);
  const base = home.casesPath;

  async function submit(values: CreateCaseBody) {
    setFormError(null);
    try {
      const created = await create.mutateAsync(values);
      navigate(`${base}/case-details/${created.id}?newCase=true`);
    } catch (error) {
      setFormError(showSaveErrors(form, error, t, { WRONG_DISEASE_TYPE: 'disease_type_id' }));
    }
  }

  return (
    <Paper withBorder p="lg" maw={560}>
      <form onSubmit={form.onSubmit(submit, () => setFormError(null))} noValidate>
        <Stack>
          <Title order={3}>{t('cases.newTitle')}</Title>
          <TextInput label={t('cases.name')} required {...form.getInputProps('name')} data-autofocus />
          <Select
            label={t('cases.diseaseType')}
            data={home.disease_types.map((d) => ({ value: d.id, label: d.name }))}
            {...form.getInputProps('disease_type_id')}
          />
          <FormError message={formError} />
          <Group justify="flex-end">
            <Button variant="default" component={Link} to={base}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('cases.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
