import { useState } from 'react';
import { Button, Card, Group, PasswordInput, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from '../../lib/i18n';
import {
  fieldNames,
  participantFields,
  professions,
  updateUserBody,
  type UpdateUserBody,
  type UserDetails,
} from '@pss/contract';
import { FormError } from '../../components/form-parts';
import { contractResolver, showSaveErrors } from '../../lib/form-errors';
import { toastSuccess } from '../../lib/toasts';
import { useUpdateUser } from './users-api';

/** Who the user is, then their details (participant-fields.ts), in the form's order. */
const textFields = ['email', 'salutation', 'first_name', 'last_name', ...fieldNames(participantFields)] as const;
type TextField = (typeof textFields)[number];
type UserValues = Record<TextField, string> & { profession: string | null; password: string };

function valuesOf(user: UserDetails): UserValues {
  const text = Object.fromEntries(textFields.map((f) => [f, user[f] ?? ''])) as Record<TextField, string>;
  return { ...text, profession: user.profession, password: '' };
}

/** A user's details; a staff account's also take a new password. Mounted afresh for each version of the user. */
export function UserDetailsForm({ user }: { user: UserDetails }) {
  const { t } = useTranslation();
  const update = useUpdateUser(user.id);
  const isStaff = user.role === 'ADMIN' || user.role === 'SUPERADMIN';
  // A password is sent only when one is typed, and only staff accounts have one set here.
  const toBody = ({ password, ...values }: UserValues) =>
    ({
      ...values,
      profession: values.profession || null,
      ...(isStaff && password ? { password } : {}),
    }) as UpdateUserBody;
  const form = useForm<UserValues, UpdateUserBody>({
    initialValues: valuesOf(user),
    validate: contractResolver(updateUserBody, t, toBody),
    transformValues: toBody,
  });
  const [formError, setFormError] = useState<string | null>(null);

  async function submit(body: UpdateUserBody) {
    setFormError(null);
    try {
      // The schema's output: optional fields left empty are sent as null.
      await update.mutateAsync(updateUserBody.parse(body));
      form.setFieldValue('password', '');
      toastSuccess(t('users.saved'));
    } catch (error) {
      setFormError(showSaveErrors(form, error, t, { EMAIL_ALREADY_EXISTS: 'email' }));
    }
  }

  return (
    <Card withBorder radius="md">
      <form onSubmit={form.onSubmit(submit, () => setFormError(null))} noValidate>
        <Stack>
          <Group justify="space-between">
            <Title order={3} size="h4">
              {t('users.details')}
            </Title>
            <Text size="sm" c="dimmed">
              {t(`users.roles.${user.role}`)}
              {user.client_name ? ` · ${user.client_name}` : ''}
              {user.employee_id ? ` · ${t('users.userId')} ${user.employee_id}` : ''}
            </Text>
          </Group>
          <FormError message={formError} />
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
            {textFields.map((field) => (
              <TextInput
                key={field}
                label={t(`users.fields.${field}`)}
                {...form.getInputProps(field)}
                required={field === 'email' || field === 'first_name' || field === 'last_name'}
              />
            ))}
            {!isStaff && (
              <Select label={t('users.fields.profession')} {...form.getInputProps('profession')} data={professions} />
            )}
            {isStaff && (
              <PasswordInput
                label={t('users.newPassword')}
                description={t('users.newPasswordHint')}
                {...form.getInputProps('password')}
                autoComplete="new-password"
              />
            )}
          </SimpleGrid>
          <Group justify="flex-end">
            <Button type="submit" loading={update.isPending}>
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
