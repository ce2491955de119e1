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
  // The list closes once a name is taken (Enter, a comma, a click on a suggestion): left open,
  // it lay over the next field and a click meant for that field took a suggestion instead.
  // Typing opens it again.
  const [opened, setOpened] = useState(false);
  const options = useQuery(catalogueQueryOptions(props.kind, debounced));
  const names = (options.data?.items ?? []).map((entry) => entry.name);
  return (
    <TagsInput
      label={props.label}
      description={props.description}
      value={props.value}
      onChange={(value) => {
        setOpened(false);
        props.onChange(value);
      }}
      searchValue={search}
      onSearchChange={(value) => {
        setSearch(value);
        if (value) setOpened(true);
      }}
      dropdownOpened={opened}
      onDropdownOpen={() => setOpened(true)}
      onDropdownClose={() => setOpened(false)}
      onClick={() => setOpened(true)}
      onKeyDown={(event) => {
        if (event.key === 'Enter' || event.key === 'Escape') setOpened(false);
      }}
      data={names}
      error={props.error}
      required
      clearable
      acceptValueOnBlur
      splitChars={[',']}
    />
  );
}
