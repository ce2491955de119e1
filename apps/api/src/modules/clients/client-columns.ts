import type { z } from 'zod';
import { type clientBody, clientFields, fieldNames, fieldsWith, type ClientFieldSpec } from '@pss/contract';
import { clients } from '../../db/schema/index.js';
import { fieldColumns, rowChanges, rowFields, wireFields } from '../../lib/field-columns.js';

/**
 * The client's fields (packages/contract/src/client-fields.ts) as the clients table holds
 * them: each field's column is its name in camelCase, so a field added to the list is read,
 * written, searched and sorted without a line here.
 */

export type ClientInput = z.output<typeof clientBody>;

const names = fieldNames(clientFields);

/** The columns the list's search reads. */
export const clientSearchColumns = Object.values(fieldColumns(fieldsWith(clientFields, 'searchable'), clients));

/** The sortable fields' columns, by wire name. */
export const clientFieldSortColumns = fieldColumns(fieldsWith(clientFields, 'sortable'), clients);

/** A row's fields under their wire names (a field without its column fails type checking here). */
export const clientFieldsOf = (row: typeof clients.$inferSelect) => wireFields(names, row);

/** The fields of a new client. */
export const newClientFields = (input: ClientInput) => rowFields(names, input);

/** The fields an update writes: one left out is kept, or cleared where client-fields.ts says so. */
export const clientFieldChanges = (input: ClientInput) =>
  rowChanges(names, input, (name) => {
    const spec: ClientFieldSpec = clientFields[name];
    return spec.clearedWhenLeftOut === true;
  });
