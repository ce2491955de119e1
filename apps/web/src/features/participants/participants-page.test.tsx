import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { participantRoutes, type Participant, type RouteDefinition } from '@pss/contract';
import { call } from '../../lib/api-client';
import { answerCalls, callsTo, pageOf, refusal } from '../../test/api-stub';
import { fill, renderScreen, searchOf } from '../../test/render-screen';
import { ParticipantsPage } from './participants-page';

vi.mock('../../lib/api-client', () => ({ call: vi.fn(), callRaw: vi.fn() }));
afterEach(() => vi.mocked(call).mockReset());

const projectId = '22222222-2222-4222-8222-222222222222';
const url = `/projects/${projectId}/participants`;

function participant(n: number, first: string, last: string, more: Partial<Participant> = {}): Participant {
  return {
    user_id: `55555555-5555-4555-8555-${String(n).padStart(12, '0')}`,
    employee_id: null,
    salutation: null,
    first_name: first,
    last_name: last,
    email: `${first.toLowerCase()}@example.org`,
    role: 'USER',
    profession: null,
    data_status: 'READY',
    archived: false,
    notes: null,
    added_at: '2026-01-05T10:00:00.000Z',
    completed_cases: 0,
    email_state: null,
    ...more,
  };
}

const ada = participant(1, 'Ada', 'Lovelace', { employee_id: 'E-1', profession: 'MD', completed_cases: 3 });
const ben = participant(2, 'Ben', 'Bell', {
  data_status: 'NOT_READY',
  email_state: 'HARD_BOUNCE',
  notes: 'Call first',
});

function renderPage(rows: Participant[] = [ada, ben], at = url, extra: [RouteDefinition, unknown][] = []) {
  answerCalls([
    [participantRoutes.list, pageOf(rows)],
    [participantRoutes.latestImport, null],
    [participantRoutes.archive, { updated: 1 }],
    [participantRoutes.setNotes, null],
    ...extra,
  ]);
  return renderScreen(<ParticipantsPage />, { url: at, path: '/projects/:projectId/participants' });
}

const table = () => screen.getByRole('table', { name: 'Participants' });
const lastQuery = () => callsTo(participantRoutes.list).at(-1)?.query;
const rowOf = (text: string) => within(table()).getByText(text).closest('tr')!;

describe('the participants table', () => {
  it('shows each participant with their email’s state, role, data status and completed cases', async () => {
    renderPage();
    await screen.findByText('Lovelace, Ada');
    const adaCells = within(rowOf('Lovelace, Ada'))
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(adaCells).toEqual(
      expect.arrayContaining(['ada@example.org', 'E-1', 'MD', 'Participant', 'Ready', '3', 'Add']),
    );
    const benRow = rowOf('Bell, Ben');
    expect(within(benRow).getByText('Address bounced')).toBeInTheDocument();
    expect(within(benRow).getByText('Not ready')).toBeInTheDocument();
    expect(within(benRow).getByRole('button', { name: 'Notes for Ben Bell' })).toHaveTextContent('Edit');
    expect(lastQuery()).toEqual({ page: 1, limit: 25, filter: '{"archived":false}' });
  });

  it('sorts by name through the address', async () => {
    const { user, address } = renderPage();
    await screen.findByText('Lovelace, Ada');
    await user.click(screen.getByRole('button', { name: 'Sort by Name' }));
    await waitFor(() => expect(searchOf(address())).toEqual({ sort: 'name:ASC' }));
    await waitFor(() => expect(lastQuery()).toMatchObject({ sort: 'name:ASC' }));
  });

  it('filters by state, data status and email through the address and asks for them', async () => {
    const { user, address } = renderPage();
    await screen.findByText('Lovelace, Ada');
    await user.click(screen.getByRole('radio', { name: 'Archived' }));
    await waitFor(() => expect(lastQuery()?.filter).toBe('{"archived":true}'));
    // An archived participant's dashboard is closed: no link column.
    expect(screen.queryByRole('columnheader', { name: 'Dashboard link' })).toBeNull();

    await user.click(screen.getByRole('combobox', { name: 'Data status' }));
    await user.click(await screen.findByRole('option', { name: 'Not ready' }));
    await waitFor(() => expect(searchOf(address())).toEqual({ archived: 'true', data_status: 'NOT_READY' }));
    await waitFor(() => expect(lastQuery()?.filter).toBe('{"archived":true,"data_status":"NOT_READY"}'));
  });

  it('says there are none yet, or that none matches the filters', async () => {
    renderPage([]);
    expect(await screen.findByText(/^No participants yet\./)).toBeInTheDocument();
  });

  it('says none matches once a filter is set', async () => {
    renderPage([], `${url}?progress=COMPLETE`);
    expect(await screen.findByText('No participants match.')).toBeInTheDocument();
    expect(lastQuery()?.filter).toBe('{"archived":false,"progress":"COMPLETE"}');
  });
});

describe('archiving participants', () => {
  it('archives the rows chosen, by their ids', async () => {
    const { user } = renderPage();
    await screen.findByText('Lovelace, Ada');
    await user.click(within(rowOf('Bell, Ben')).getByRole('checkbox', { name: 'Select row' }));
    await user.click(screen.getByRole('button', { name: 'Archive 1 selected' }));
    await waitFor(() =>
      expect(callsTo(participantRoutes.archive)).toEqual([
        { params: { usersIds: ben.user_id, projectId }, body: undefined },
      ]),
    );
  });

  it('archives every matching participant but the ones unticked, with the search and filter', async () => {
    const { user } = renderPage([ada, ben], `${url}?search=e&data_status=READY`);
    await screen.findByText('Lovelace, Ada');
    await user.click(screen.getByRole('checkbox', { name: 'Select all rows' }));
    await user.click(within(rowOf('Lovelace, Ada')).getByRole('checkbox', { name: 'Select row' }));
    await user.click(screen.getByRole('button', { name: 'Archive 1 selected' }));
    await waitFor(() =>
      expect(callsTo(participantRoutes.archive)).toEqual([
        {
          params: { usersIds: 'all', projectId },
          body: { except: [ada.user_id], search: 'e', filter: { archived: false, data_status: 'READY' } },
        },
      ]),
    );
  });
});

describe('a participant’s notes', () => {
  it('saves the notes typed, trimmed, for that participant in this project', async () => {
    const { user } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Notes for Ada Lovelace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Notes for Ada Lovelace' });
    await fill(user, within(dialog).getByRole('textbox', { name: 'Notes' }), '  Prefers email ');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(callsTo(participantRoutes.setNotes)).toEqual([
        { params: { userId: ada.user_id, projectId }, body: { notes: 'Prefers email' } },
      ]),
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Notes for Ada Lovelace' })).toBeNull());
  });

  it('keeps the notes open when they cannot be saved', async () => {
    const { user } = renderPage([ada, ben], url, [
      [participantRoutes.setNotes, refusal(409, 'USER_UPDATE_BLOCKED_BY_IMPORT')],
    ]);
    await user.click(await screen.findByRole('button', { name: 'Notes for Ben Bell' }));
    const dialog = await screen.findByRole('dialog', { name: 'Notes for Ben Bell' });
    expect(within(dialog).getByRole('textbox', { name: 'Notes' })).toHaveValue('Call first');
    await user.clear(within(dialog).getByRole('textbox', { name: 'Notes' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(callsTo(participantRoutes.setNotes)).toEqual([
        { params: { userId: ben.user_id, projectId }, body: { notes: null } },
      ]),
    );
    expect(screen.getByRole('dialog', { name: 'Notes for Ben Bell' })).toBeInTheDocument();
  });
});
