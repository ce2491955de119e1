import { useState } from 'react';
import { Button, Group, Paper, Select, Stack, TextInput, Title } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { useCaseHome } from '../../lib/case-home';
import { useTranslation } from 'react-i18next';
import { FormError } from '../../components/form-parts';
import { saveErrors, type FieldErrors } from '../../lib/form-errors';
import { useCreateCase } from './cases-api';

/** Case Setup, first step: a name and a disease type; the editor takes it from there. */
export function NewCasePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const home = useCaseHome();
  const create = useCreateCase();
  const [name, setName] = useState('');
  const [diseaseTypeId, setDiseaseTypeId] = useState<string | null>(
    home.disease_types.length === 1 ? home.disease_types[0]!.id : null,
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const base = home.casesPath;

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!name.trim()) return setErrors({ name: t('errors.FIELD_REQUIRED') });
    try {
      const created = await create.mutateAsync({
        ...(home.kind === 'project' ? { project_id: home.id } : { module_id: home.id }),
        name,
        disease_type_id: diseaseTypeId,
      });
      navigate(`${base}/case-details/${created.id}?newCase=true`);
    } catch (error) {
      const result = saveErrors(error, t, { WRONG_DISEASE_TYPE: 'disease_type_id' });
      setErrors(result.fields);
      setFormError(result.form);
    }
  }

  return (
    <Paper withBorder p="lg" maw={560}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack>
          <Title order={3}>{t('cases.newTitle')}</Title>
          <TextInput
            label={t('cases.name')}
            required
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.name}
            data-autofocus
          />
          <Select
            label={t('cases.diseaseType')}
            data={home.disease_types.map((d) => ({ value: d.id, label: d.name }))}
            value={diseaseTypeId}
            onChange={setDiseaseTypeId}
            error={errors.disease_type_id}
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
