import { useState } from 'react';
import { Autocomplete, Button, Group, Select, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { auditActionName, auditActionNames, type CurrentUser } from '@pss/contract';
import { useTranslation } from '../../lib/i18n';
import { actorSearchQueryOptions, projectOptionsQueryOptions } from './audit-api';
import { hasFilters, isUuid } from './audit-filters';
import { useTypedFilter, type AuditLogState } from './use-audit-log-state';

/** Every action by its words, A to Z (the address keeps its code); one the words do not know, as it came. */
const ACTION_OPTIONS = Object.entries(auditActionNames)
  .map(([value, label]) => ({ value, label }))
  .sort((a, b) => a.label.localeCompare(b.label));

function actionOptions(current: string | undefined) {
  if (!current || Object.hasOwn(auditActionNames, current)) return ACTION_OPTIONS;
  return [{ value: current, label: auditActionName(current) }, ...ACTION_OPTIONS];
}

/** Target types offered as the box is typed in; any other the events name can be typed. */
const TARGET_TYPES = ['case', 'user', 'project', 'client'] as const;

/**
 * The log's filters: who (picked by name or email), what action, which record, which project,
 * and between which days. Each is applied as it is chosen (a typed one once typing pauses).
 */
export function AuditLogFilters(props: { state: AuditLogState; user: CurrentUser }) {
  const { t } = useTranslation();
  const { state } = props;
  const targetType = useTypedFilter(state, 'target_type');
  const targetId = useTypedFilter(state, 'target_id');
  const projects = useQuery(projectOptionsQueryOptions());
  const superadmin = props.user.role === 'superadmin';

  return (
    <Group align="flex-end" wrap="wrap" gap="sm" mb="md" role="search" aria-label={t('audit.filters.label')}>
      <ActorPicker state={state} user={props.user} />
      <Select
        label={t('audit.filters.action')}
        placeholder={t('audit.filters.anyAction')}
        data={actionOptions(state.filters.action)}
        value={state.filters.action ?? null}
        onChange={(value) => state.setFilter('action', value)}
        searchable
        clearable
        w={180}
      />
      <Autocomplete
        label={t('audit.filters.targetType')}
        placeholder={t('audit.filters.targetTypePlaceholder')}
        data={[...TARGET_TYPES]}
        value={targetType.value}
        onChange={targetType.onChange}
        w={120}
      />
      <TextInput
        label={t('audit.filters.targetId')}
        value={targetId.value}
        onChange={(e) => targetId.onChange(e.currentTarget.value)}
        w={150}
      />
      <Select
        label={t('audit.filters.project')}
        placeholder={t('audit.filters.anyProject')}
        data={(projects.data?.items ?? []).map((p) => ({
          value: p.id,
          label: superadmin ? `${p.client_name} › ${p.name}` : p.name,
        }))}
        value={state.filters.project_id ?? null}
        onChange={(value) => state.setFilter('project_id', value)}
        searchable
        clearable
        w={210}
      />
      <TextInput
        type="date"
        label={t('audit.filters.from')}
        value={state.filters.from ?? ''}
        onChange={(e) => state.setFilter('from', e.currentTarget.value || null)}
        w={140}
      />
      <TextInput
        type="date"
        label={t('audit.filters.to')}
        value={state.filters.to ?? ''}
        onChange={(e) => state.setFilter('to', e.currentTarget.value || null)}
        w={140}
      />
      {hasFilters(state.filters) && (
        <Button variant="subtle" onClick={state.clearFilters}>
          {t('audit.filters.clear')}
        </Button>
      )}
    </Group>
  );
}

/**
 * The actor, found by name or email among the people the caller may see (the users list), or
 * the caller. An actor chosen elsewhere (a link) is shown by their ID until found.
 */
function ActorPicker(props: { state: AuditLogState; user: CurrentUser }) {
  const { t } = useTranslation();
  const { state, user } = props;
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<{ value: string; label: string } | null>(null);
  // The box shows the chosen person's label: that is not a search for someone else.
  const [debounced] = useDebouncedValue(search === picked?.label ? '' : search, 300);
  const people = useQuery(actorSearchQueryOptions(debounced));
  const selected = state.filters.actor_id ?? null;
  const options = new Map<string, string>();
  // The caller, offered until a search asks for someone.
  if (!debounced) options.set(user.id, t('audit.filters.me', { email: user.email }));
  for (const person of people.data?.items ?? []) {
    // The caller, found by a search, keeps their "Me".
    if (!options.has(person.id)) options.set(person.id, `${person.last_name}, ${person.first_name} (${person.email})`);
  }
  if (picked) options.set(picked.value, picked.label);
  if (selected && !options.has(selected)) options.set(selected, selected);
  return (
    <Select
      label={t('audit.filters.actor')}
      placeholder={t('audit.filters.actorPlaceholder')}
      data={[...options].map(([value, label]) => ({ value, label }))}
      value={selected}
      onChange={(value, option) => {
        setPicked(value && option ? { value, label: option.label } : null);
        state.setFilter('actor_id', value && isUuid(value) ? value : null);
      }}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      // The list is found by the server (name, email, user ID); the box does not narrow it again.
      filter={({ options: all }) => all}
      nothingFoundMessage={t('audit.filters.actorSearch')}
      comboboxProps={{ width: 'max-content', position: 'bottom-start' }}
      clearable
      w={220}
    />
  );
}
