import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { clientRoutes, userRoutes, type UserSummary } from '@pss/contract';
import { call } from '../../lib/api-client';
import { answerCalls, callsTo, pageOf, refusal } from '../../test/api-stub';
import { fill, renderScreen, searchOf } from '../../test/render-screen';
import { UsersListPage } from './users-list-page';

vi.mock('../../lib/api-client', () => ({ call: vi.fn(), callRaw: vi.fn() }));
afterEach(() => vi.mocked(call).mockReset());

const clientId = '33333333-3333-4333-8333-333333333333';
const ada: UserSummary = {
  id: '55555555-5555-4555-8555-555555555551',
  email: 'ada@example.org',
  first_name: 'Ada',
  last_name: 'Lovelace',
  role: 'ADMIN',
  client_id: clientId,
  client_name: 'North Clinic',
  employee_id: null,
  profession: null,
  created_at: '2026-01-05T10:00:00.000Z',
};
const ben: UserSummary = {
  ...ada,
  id: '55555555-5555-4555-8555-555555555552',
  email: 'ben@example.org',
  first_name: 'Ben',
  last_name: 'Bell',
  role: 'USER',
  client_id: null,
  client_name: null,
  employee_id: 'E-2',
};
const staff = {
  id: ada.id,
  email: ada.email,
  first_name: 'Ada',
  last_name: 'Lovelace',
  role: 'ADMIN',
  client_id: clientId,
  created_at: ada.created_at,
};

function renderPage(rows: UserSummary[] = [ada, ben], url = '/user-management', create: unknown = staff) {
  answerCalls([
    [userRoutes.list, pageOf(rows)],
    [clientRoutes.list, pageOf([{ id: clientId, name: 'North Clinic' }])],
    [userRoutes.createStaff, create],
  ]);
  return renderScreen(<UsersListPage />, { url });
}

const lastQuery = () => callsTo(userRoutes.list).at(-1)?.query;
const field = (name: string) => screen.getByRole('textbox', { name: new RegExp(`^${name}`) });

async function openStaffForm(user: ReturnType<typeof renderPage>['user']) {
  await user.click(screen.getByRole('button', { name: 'New staff account' }));
  return screen.findByRole('dialog', { name: 'New staff account' });
}

describe('the users list', () => {
  it('shows everyone with a link to their details, their role and client', async () => {
    renderPage();
    const link = await screen.findByRole('link', { name: 'Lovelace, Ada' });
    expect(link).toHaveAttribute('href', `/user-management/${ada.id}`);
    const rows = within(screen.getByRole('table', { name: 'User Management' }))
      .getAllByRole('row')
      .slice(1);
    expect(
      within(rows[0]!)
        .getAllByRole('cell')
        .slice(0, 5)
        .map((cell) => cell.textContent),
    ).toEqual(['Lovelace, Ada', 'ada@example.org', 'Client administrator', 'North Clinic', '—']);
    expect(
      within(rows[1]!)
        .getAllByRole('cell')
        .slice(0, 5)
        .map((cell) => cell.textContent),
    ).toEqual(['Bell, Ben', 'ben@example.org', 'Participant', '—', 'E-2']);
    expect(lastQuery()).toEqual({ page: 1, limit: 25 });
  });

  it('filters by role and sorts by email through the address', async () => {
    const { user, address } = renderPage();
    await screen.findByRole('link', { name: 'Lovelace, Ada' });
    await user.click(screen.getByRole('combobox', { name: 'Role' }));
    await user.click(await screen.findByRole('option', { name: 'Provider employee' }));
    await waitFor(() => expect(searchOf(address())).toEqual({ role: 'SUPERADMIN' }));
    await waitFor(() => expect(lastQuery()).toEqual({ page: 1, limit: 25, filter: '{"role":"SUPERADMIN"}' }));
    await user.click(screen.getByRole('button', { name: 'Sort by Email' }));
    await waitFor(() =>
      expect(lastQuery()).toEqual({ page: 1, limit: 25, sort: 'email:ASC', filter: '{"role":"SUPERADMIN"}' }),
    );
  });

  it('says when no user matches', async () => {
    renderPage([], '/user-management?search=nobody');
    expect(await screen.findByText('No users match.')).toBeInTheDocument();
    expect(lastQuery()).toEqual({ page: 1, limit: 25, search: 'nobody' });
  });
});

describe('a new staff account', () => {
  it('checks the fields as the contract does and sends nothing', async () => {
    const { user } = renderPage();
    const dialog = await openStaffForm(user);
    await fill(user, field('Email'), 'not-an-address');
    await user.type(screen.getByLabelText(/^Password/), '123');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(field('Email')).toHaveAccessibleDescription('Please enter a valid email address.'));
    expect(field('First name')).toHaveAccessibleDescription('This field is required.');
    expect(screen.getByLabelText(/^Password/)).toHaveAccessibleDescription(
      'The password must be at least 6 characters long.',
    );
    expect(callsTo(userRoutes.createStaff)).toEqual([]);
  });

  it('asks a client administrator’s client', async () => {
    const { user } = renderPage();
    const dialog = await openStaffForm(user);
    await fill(user, field('Email'), 'cleo@example.org');
    await user.type(field('First name'), 'Cleo');
    await user.type(field('Last name'), 'Admin');
    await fill(user, screen.getByLabelText(/^Password/), 'secret-pass');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: /^Client/ })).toHaveAccessibleDescription('This field is required.'),
    );
    expect(callsTo(userRoutes.createStaff)).toEqual([]);
  });

  it('creates a client administrator of the client picked', async () => {
    const { user } = renderPage();
    const dialog = await openStaffForm(user);
    await user.click(screen.getByRole('combobox', { name: /^Client/ }));
    await user.click(await screen.findByRole('option', { name: 'North Clinic' }));
    await fill(user, field('Email'), 'Cleo@Example.org');
    await user.type(field('First name'), 'Cleo');
    await user.type(field('Last name'), 'Admin');
    await fill(user, screen.getByLabelText(/^Password/), 'secret-pass');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo(userRoutes.createStaff)).toHaveLength(1));
    expect(callsTo(userRoutes.createStaff)[0]).toEqual({
      body: {
        email: 'Cleo@Example.org',
        first_name: 'Cleo',
        last_name: 'Admin',
        role: 'ADMIN',
        client_id: clientId,
        password: 'secret-pass',
      },
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New staff account' })).toBeNull());
  });

  it('creates a provider employee without a client, and says beside the email that it is taken', async () => {
    const { user } = renderPage([ada], '/user-management', refusal(409, 'EMAIL_ALREADY_EXISTS'));
    const dialog = await openStaffForm(user);
    // A client picked first is dropped: a provider employee belongs to none.
    await user.click(screen.getByRole('combobox', { name: /^Client/ }));
    await user.click(await screen.findByRole('option', { name: 'North Clinic' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Role' }));
    await user.click(await screen.findByRole('option', { name: 'Provider employee' }));
    expect(within(dialog).queryByRole('combobox', { name: /^Client/ })).toBeNull();
    await fill(user, field('Email'), 'ada@example.org');
    await user.type(field('First name'), 'Ada');
    await fill(user, field('Last name'), 'Lovelace');
    await fill(user, screen.getByLabelText(/^Password/), 'secret-pass');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(field('Email')).toHaveAccessibleDescription('A user with this email address already exists.'),
    );
    expect(callsTo(userRoutes.createStaff)[0]?.body).toMatchObject({ role: 'SUPERADMIN', client_id: null });
    expect(screen.getByRole('dialog', { name: 'New staff account' })).toBeInTheDocument();
  });
});
