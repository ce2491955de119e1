import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { clientRoutes, type Client } from '@pss/contract';
import { call } from '../../lib/api-client';
import { answerCalls, callsTo, pageOf } from '../../test/api-stub';
import { renderScreen, searchOf } from '../../test/render-screen';
import { ClientsListPage } from './clients-list-page';

vi.mock('../../lib/api-client', () => ({ call: vi.fn(), callRaw: vi.fn() }));
afterEach(() => vi.mocked(call).mockReset());

function clientNamed(name: string, n: number, more: Partial<Client> = {}): Client {
  return {
    id: `11111111-1111-4111-8111-${String(n).padStart(12, '0')}`,
    name,
    cap_id: null,
    cap_status: null,
    support_email: null,
    support_phone: null,
    contact_email: null,
    project_count: 0,
    created_at: '2026-01-05T10:00:00.000Z',
    updated_at: '2026-01-05T10:00:00.000Z',
    ...more,
  };
}

const north = clientNamed('North Clinic', 1, { cap_id: 'CAP-1', cap_status: 'Active', project_count: 2 });
const south = clientNamed('South Clinic', 2);

function renderList(url = '/project-management', rows: Client[] = [north, south], total = rows.length) {
  answerCalls([[clientRoutes.list, pageOf(rows, total)]]);
  return renderScreen(<ClientsListPage />, { url });
}

const table = () => screen.getByRole('table', { name: 'Clients' });
const lastListQuery = () => callsTo(clientRoutes.list).at(-1)?.query;

describe('the clients list', () => {
  it('shows a row for each client: its name as a link, its CAP details and its projects', async () => {
    renderList();
    const link = await screen.findByRole('link', { name: 'North Clinic' });
    expect(link).toHaveAttribute('href', `/project-management/clients/${north.id}`);
    const rows = within(table()).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(
      within(rows[0]!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(expect.arrayContaining(['North Clinic', 'CAP-1', 'Active', '2']));
    // A client without a CAP ID shows a dash, not an empty cell.
    expect(
      within(rows[1]!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(expect.arrayContaining(['South Clinic', '—', '0']));
    expect(lastListQuery()).toEqual({ page: 1, limit: 25 });
  });

  it('sorts through the address: a header click asks the server for that order, a second the other way', async () => {
    const { user, address } = renderList();
    await screen.findByRole('link', { name: 'North Clinic' });
    await user.click(screen.getByRole('button', { name: 'Sort by Client name' }));
    await waitFor(() => expect(searchOf(address())).toEqual({ sort: 'name:ASC' }));
    await waitFor(() => expect(lastListQuery()).toMatchObject({ sort: 'name:ASC' }));
    expect(screen.getByRole('columnheader', { name: /Client name/ })).toHaveAttribute('aria-sort', 'ascending');

    await user.click(screen.getByRole('button', { name: 'Sort by Client name' }));
    await waitFor(() => expect(lastListQuery()).toMatchObject({ sort: 'name:DESC' }));
    expect(screen.getByRole('columnheader', { name: /Client name/ })).toHaveAttribute('aria-sort', 'descending');
  });

  it('pages through the address and asks for the page shown', async () => {
    const { user, address } = renderList('/project-management', [north, south], 60);
    await screen.findByRole('link', { name: 'North Clinic' });
    await user.click(screen.getByRole('button', { name: 'Page 2 of 3' }));
    await waitFor(() => expect(searchOf(address())).toEqual({ page: '2' }));
    await waitFor(() => expect(lastListQuery()).toEqual({ page: 2, limit: 25 }));
  });

  it('opens on the page, search and order its address names', async () => {
    renderList('/project-management?page=3&search=north&sort=created_at:DESC');
    await screen.findByRole('link', { name: 'North Clinic' });
    expect(lastListQuery()).toEqual({ page: 3, limit: 25, search: 'north', sort: 'created_at:DESC' });
    expect(screen.getByRole('searchbox', { name: 'Search' })).toHaveValue('north');
  });

  it('says there are no clients yet, or that none matches a search', async () => {
    renderList('/project-management', []);
    expect(await screen.findByText('No clients yet.')).toBeInTheDocument();
  });

  it('says that none matches the search typed', async () => {
    const { user, address } = renderList('/project-management', []);
    await screen.findByText('No clients yet.');
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'zzz');
    await waitFor(() => expect(searchOf(address())).toEqual({ search: 'zzz' }), { timeout: 2000 });
    expect(await screen.findByText('No clients match this search.')).toBeInTheDocument();
    expect(lastListQuery()).toEqual({ page: 1, limit: 25, search: 'zzz' });
  });

  it('asks before deleting a client and deletes only the one confirmed; one with projects cannot be', async () => {
    answerCalls([
      [clientRoutes.list, pageOf([north, south])],
      [clientRoutes.remove, undefined],
    ]);
    const { user } = renderScreen(<ClientsListPage />, { url: '/project-management' });
    await screen.findByRole('link', { name: 'North Clinic' });
    expect(screen.getByRole('button', { name: 'Delete North Clinic' })).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('button', { name: 'Delete North Clinic' })).toHaveAccessibleDescription(
      'A client with projects cannot be deleted: delete its projects first.',
    );

    await user.click(screen.getByRole('button', { name: 'Delete South Clinic' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete client' });
    expect(dialog).toHaveTextContent('Delete South Clinic? Its administrators lose their accounts.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(callsTo(clientRoutes.remove)).toEqual([{ params: { id: south.id } }]));
  });
});
