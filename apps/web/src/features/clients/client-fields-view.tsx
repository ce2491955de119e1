import type { ReactNode } from 'react';
import {
  clientFields,
  fieldNames,
  fieldsWith,
  type Client,
  type ClientFieldName,
  type ClientFields,
  type FieldsWith,
} from '@pss/contract';
import type { Column } from '../../components/data-table';
import type { TFunction } from '../../lib/i18n';

/**
 * The client's fields (packages/contract/src/client-fields.ts) on the screens: their labels
 * and hints, the list's columns and the client page's lines, in the list's order. A field
 * added there shows here with its label in lib/i18n/admin-areas/clients.ts (a missing label
 * fails type checking).
 */

export const clientFieldNames = fieldNames(clientFields);

export const clientFieldLabel = (t: TFunction, name: ClientFieldName) => t(`clients.${clientFields[name].label}`);

const hinted = new Set<ClientFieldName>(fieldsWith(clientFields, 'hint'));
const isHinted = (name: ClientFieldName): name is FieldsWith<ClientFields, 'hint'> => hinted.has(name);

/** The text under a field's input, if it has one. */
export const clientFieldHint = (t: TFunction, name: ClientFieldName) =>
  isHinted(name) ? t(`clients.${clientFields[name].label}Hint`) : undefined;

/** The list's columns of the fields marked `listed`: sortable where the field is; `render` replaces a field's plain value. */
export function clientFieldColumns(
  t: TFunction,
  render: Partial<Record<ClientFieldName, (client: Client) => ReactNode>> = {},
): Column<Client>[] {
  const sortable = new Set<string>(fieldsWith(clientFields, 'sortable'));
  return fieldsWith(clientFields, 'listed').map((name) => ({
    key: name,
    header: clientFieldLabel(t, name),
    sortField: sortable.has(name) ? name : undefined,
    render: render[name] ?? ((client) => client[name] ?? '—'),
  }));
}

/** The client page's lines: the fields marked `detailed`, each with its label. */
export function clientFieldDetails(
  t: TFunction,
  client: Client,
): { name: ClientFieldName; label: string; value: string }[] {
  return fieldsWith(clientFields, 'detailed').map((name) => ({
    name,
    label: clientFieldLabel(t, name),
    value: client[name] ?? '—',
  }));
}
