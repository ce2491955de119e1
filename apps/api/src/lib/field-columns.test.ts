import { describe, expect, it } from 'vitest';
import { rowChanges, rowFields, rowKey, wireFields } from './field-columns.js';

const names = ['name', 'cap_id', 'support_email'] as const;

describe('a field list meeting its table', () => {
  it('names a column by the field in camelCase', () => {
    expect(rowKey('support_email')).toBe('supportEmail');
    expect(rowKey('name')).toBe('name');
    expect(rowKey('a_b_c')).toBe('aBC');
  });

  it('reads a row under the wire names and writes a new row with a field left out as null', () => {
    expect(wireFields(names, { name: 'Alpha', capId: 'CAP-1', supportEmail: null, other: 1 })).toEqual({
      name: 'Alpha',
      cap_id: 'CAP-1',
      support_email: null,
    });
    expect(rowFields(names, { name: 'Alpha' })).toEqual({ name: 'Alpha', capId: null, supportEmail: null });
  });

  it('updates: a null clears a field, one left out is kept unless the list says it is cleared', () => {
    const cleared = (name: string) => name === 'cap_id';
    expect(rowChanges(names, { name: 'Beta', support_email: null }, cleared)).toEqual({
      name: 'Beta',
      capId: null,
      supportEmail: null,
    });
    const changes = rowChanges(names, { name: 'Beta' }, cleared);
    expect(changes).toEqual({ name: 'Beta', capId: null, supportEmail: undefined });
    expect('supportEmail' in changes && changes.supportEmail === undefined).toBe(true);
  });
});
