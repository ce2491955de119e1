import { useState } from 'react';
import { TagsInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { diseaseTypeRoutes, questionCategoryRoutes } from '@pss/contract';
import { call } from '../lib/api-client';

export type CatalogueKind = 'disease-types' | 'question-categories';

const catalogues = { 'disease-types': diseaseTypeRoutes, 'question-categories': questionCategoryRoutes } as const;

function catalogueQueryOptions(kind: CatalogueKind, search: string) {
  return queryOptions({
    queryKey: ['catalogue', kind, search] as const,
    queryFn: ({ signal }) =>
      call(catalogues[kind].list, { query: { search: search || undefined, limit: 50 } }, { signal }),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

/**
 * Picks catalogue entries by name: suggestions come from the shared catalogue, and a new
 * name typed here is created when the project (or module library) is saved.
 */
export function CataloguePicker(props: {
  kind: CatalogueKind;
  label: string;
  description: string;
  value: string[];
  onChange(value: string[]): void;
  error?: string;
}) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const options = useQuery(catalogueQueryOptions(props.kind, debounced));
  const names = (options.data?.items ?? []).map((entry) => entry.name);
  return (
    <TagsInput
      label={props.label}
      description={props.description}
      value={props.value}
      onChange={props.onChange}
      searchValue={search}
      onSearchChange={setSearch}
      data={names}
      error={props.error}
      required
      clearable
      acceptValueOnBlur
      splitChars={[',']}
    />
  );
}
