import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { clientRoutes, type Client } from '@pss/contract';
import { call } from '../../lib/api-client';
import { t } from '../../lib/i18n';
import { ClientFormModal } from './client-form-modal';
import { clientFieldColumns, clientFieldDetails } from './client-fields-view';

vi.mock('../../lib/api-client', () => ({ call: vi.fn() }));

afterEach(() => vi.mocked(call).mockReset());

const client: Client = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Harbor Clinic',
  cap_id: 'CAP-1',
  cap_status: null,
  support_email: 'help@harbor.example',
  support_phone: null,
  contact_email: 'office@harbor.example',
  project_count: 2,
  created_at: '2026-03-01T00:00:00.000Z',
  updated_at: '2026-03-02T00:00:00.000Z',
};

function renderForm(editing?: Client) {
  const queries = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={queries}>
        <ClientFormModal opened client={editing} onClose={vi.fn()} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return userEvent.setup();
}

describe("a client's fields (client-fields.ts) on the screens", () => {
  it('the form has an input for each field, with its label, hint and kind, in the list’s order', () => {
    renderForm();
    const inputs = screen.getAllByRole('textbox');
    expect(inputs.map((input) => input.getAttribute('type'))).toEqual([null, null, null, 'email', 'tel', 'email']);
    expect(screen.getByRole('textbox', { name: 'Client name' })).toBeRequired();
    expect(screen.getByRole('textbox', { name: 'CAP ID' })).toHaveAccessibleDescription(
      'The CAP member number; unique among clients.',
    );
    expect(screen.getByRole('textbox', { name: 'CAP status' })).not.toBeRequired();
    expect(screen.getByRole('textbox', { name: 'Support email' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Support phone' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Contact email' })).toHaveAttribute('type', 'email');
  });

  it('sends every field: the name as typed, the others trimmed and empty as null', async () => {
    vi.mocked(call).mockResolvedValue({ ...client, name: 'New Clinic' } as never);
    const user = renderForm();
    await user.type(screen.getByRole('textbox', { name: 'Client name' }), 'New Clinic');
    await user.type(screen.getByRole('textbox', { name: 'CAP status' }), '  Active  ');
    await user.type(screen.getByRole('textbox', { name: 'Contact email' }), ' desk@new.example ');
    await user.click(screen.getByRole('button', { name: t('common.save') }));
    expect(call).toHaveBeenCalledWith(clientRoutes.create, {
      body: {
        name: 'New Clinic',
        cap_id: null,
        cap_status: 'Active',
        support_email: null,
        support_phone: null,
        contact_email: 'desk@new.example',
      },
    });
  });

  it('fills the form with the client’s values and sends them back as an update', async () => {
    vi.mocked(call).mockResolvedValue(client as never);
    const user = renderForm(client);
    expect(screen.getByRole('textbox', { name: 'Support email' })).toHaveValue('help@harbor.example');
    expect(screen.getByRole('textbox', { name: 'Support phone' })).toHaveValue('');
    expect(screen.getByRole('textbox', { name: 'Contact email' })).toHaveValue('office@harbor.example');
    await user.click(screen.getByRole('button', { name: t('common.save') }));
    expect(call).toHaveBeenCalledWith(clientRoutes.update, {
      params: { id: client.id },
      body: {
        name: 'Harbor Clinic',
        cap_id: 'CAP-1',
        cap_status: null,
        support_email: 'help@harbor.example',
        support_phone: null,
        contact_email: 'office@harbor.example',
      },
    });
  });

  it('the list has a column for each listed field, sortable where the field is', () => {
    const columns = clientFieldColumns(t);
    expect(columns.map((c) => [c.key, c.header, c.sortField])).toEqual([
      ['name', 'Client name', 'name'],
      ['cap_id', 'CAP ID', 'cap_id'],
      ['cap_status', 'CAP status', 'cap_status'],
    ]);
    expect(columns.map((c) => c.render(client))).toEqual(['Harbor Clinic', 'CAP-1', '—']);
    expect(clientFieldColumns(t, { name: (c) => `link to ${c.name}` })[0]!.render(client)).toBe(
      'link to Harbor Clinic',
    );
  });

  it('the client page has a line for each detailed field', () => {
    expect(clientFieldDetails(t, client)).toEqual([
      { name: 'cap_id', label: 'CAP ID', value: 'CAP-1' },
      { name: 'cap_status', label: 'CAP status', value: '—' },
      { name: 'contact_email', label: 'Contact email', value: 'office@harbor.example' },
    ]);
    expect(clientFieldDetails(t, { ...client, contact_email: null }).at(-1)).toMatchObject({ value: '—' });
  });
});
