import { useState } from 'react';
import { ActionIcon, Group, MultiSelect, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n';
import { errorMessage } from '../../lib/api-error';
import { toastError, toastSuccess } from '../../lib/toasts';
import { categoriesQueryOptions, useCreateCategory } from './resources-api';

/** A resource's categories: chosen from the library's, or a new one added on the spot. */
export function CategoryField(props: { value: string[]; onChange(ids: string[]): void; error?: string }) {
  const { t } = useTranslation();
  const categories = useQuery(categoriesQueryOptions());
  const create = useCreateCategory();
  const [name, setName] = useState('');
  async function add() {
    if (!name.trim()) return;
    try {
      const made = await create.mutateAsync(name.trim());
      props.onChange([...new Set([...props.value, made.id])]);
      toastSuccess(t('resources.categoryAdded', { name: made.name }));
      setName('');
    } catch (error) {
      toastError(errorMessage(error, t));
    }
  }
  return (
    <Group align="flex-end" wrap="wrap">
      <MultiSelect
        label={t('resources.categories')}
        data={(categories.data?.items ?? []).map((c) => ({ value: c.id, label: c.name }))}
        value={props.value}
        onChange={props.onChange}
        searchable
        clearable
        error={props.error}
        w={320}
      />
      <TextInput
        label={t('resources.newCategory')}
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            void add();
          }
        }}
        w={200}
      />
      <ActionIcon
        variant="default"
        size="lg"
        aria-label={t('resources.addCategory')}
        onClick={() => void add()}
        loading={create.isPending}
      >
        +
      </ActionIcon>
    </Group>
  );
}
