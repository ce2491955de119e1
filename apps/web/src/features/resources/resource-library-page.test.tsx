import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { resourceRoutes, type Resource } from '@pss/contract';
import { call } from '../../lib/api-client';
import { answerCalls, callsTo, pageOf, refusal } from '../../test/api-stub';
import { renderScreen, searchOf } from '../../test/render-screen';
import { ResourceLibraryPage } from './resource-library-page';

vi.mock('../../lib/api-client', () => ({ call: vi.fn(), callRaw: vi.fn(), uploadWithProgress: vi.fn() }));
afterEach(() => vi.mocked(call).mockReset());

function resource(n: number, name: string, more: Partial<Resource> = {}): Resource {
  return {
    id: `77777777-7777-4777-8777-${String(n).padStart(12, '0')}`,
    name,
    source_type: 'URL',
    details: '',
    link: `https://example.org/${n}`,
    file: null,
    categories: [],
    attachment_status: 'NOT_ATTACHED',
    attached_case_count: 0,
    duplicate_of: null,
    created_at: '2026-01-05T10:00:00.000Z',
    updated_at: '2026-01-05T10:00:00.000Z',
    ...more,
  };
}

const guideline = resource(1, 'Asthma guideline', {
  categories: [{ id: '88888888-8888-4888-8888-888888888881', name: 'Guidelines' }],
  attachment_status: 'ATTACHED_ACTIVE',
  attached_case_count: 2,
});
const reading = resource(2, 'Reading list', { source_type: 'TEXT', link: null });

function renderLibrary(
  rows: Resource[] = [guideline, reading],
  url = '/resource-library',
  remove: unknown = { ids: [] },
) {
  answerCalls([
    [resourceRoutes.list, pageOf(rows)],
    [resourceRoutes.categories, { items: [] }],
    [resourceRoutes.remove, remove],
  ]);
  return renderScreen(<ResourceLibraryPage />, { url });
}

const lastQuery = () => callsTo(resourceRoutes.list).at(-1)?.query;
const rowOf = (name: string) => screen.getByRole('link', { name }).closest('tr')!;

describe('the resource library', () => {
  it('shows each resource with a link to it, its categories and where it is attached', async () => {
    renderLibrary();
    expect(await screen.findByRole('link', { name: 'Asthma guideline' })).toHaveAttribute(
      'href',
      `/resource-library/${guideline.id}`,
    );
    expect(rowOf('Asthma guideline')).toHaveTextContent('Guidelines');
    expect(screen.getByTestId(`attachment-${guideline.id}`)).toHaveTextContent('Attached to active cases · 2 cases');
    expect(screen.getByTestId(`attachment-${reading.id}`)).toHaveTextContent('Not attached');
    expect(
      within(rowOf('Reading list'))
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toContain('—');
    expect(lastQuery()).toEqual({ page: 1, limit: 25 });
  });

  it('sorts and filters through the address, from the first page', async () => {
    const { user, address } = renderLibrary([guideline], '/resource-library?page=2');
    await screen.findByRole('link', { name: 'Asthma guideline' });
    await user.click(screen.getByRole('combobox', { name: 'Attachment' }));
    await user.click(await screen.findByRole('option', { name: 'Not attached' }));
    await waitFor(() => expect(searchOf(address())).toEqual({ attachment: 'NOT_ATTACHED' }));
    await waitFor(() =>
      expect(lastQuery()).toEqual({ page: 1, limit: 25, filter: '{"attachment_status":"NOT_ATTACHED"}' }),
    );
    await user.click(screen.getByRole('button', { name: 'Sort by Type' }));
    await waitFor(() => expect(lastQuery()).toMatchObject({ sort: 'source_type:ASC' }));
  });

  it('says the library is empty, or that nothing matches the filters', async () => {
    renderLibrary([]);
    expect(await screen.findByText(/^The library is empty\./)).toBeInTheDocument();
  });

  it('says nothing matches once filtered', async () => {
    renderLibrary([], '/resource-library?type=PDF');
    expect(await screen.findByText('No resource matches the search and filters.')).toBeInTheDocument();
    expect(lastQuery()).toEqual({ page: 1, limit: 25, filter: '{"source_type":["PDF"]}' });
  });

  it('deletes the rows chosen after asking', async () => {
    const { user } = renderLibrary([guideline, reading], '/resource-library', { ids: [reading.id] });
    await screen.findByRole('link', { name: 'Reading list' });
    expect(screen.getByRole('button', { name: 'Delete selected (0)' })).toBeDisabled();
    await user.click(within(rowOf('Reading list')).getByRole('checkbox', { name: 'Select row' }));
    await user.click(screen.getByRole('button', { name: 'Delete selected (1)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete 1 resource?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(callsTo(resourceRoutes.remove)).toEqual([{ query: { filter: JSON.stringify({ ids: [reading.id] }) } }]),
    );
  });

  it('keeps the selection when a deletion is refused', async () => {
    const { user } = renderLibrary([guideline], '/resource-library', refusal(409, 'NOT_FOUND'));
    await screen.findByRole('link', { name: 'Asthma guideline' });
    await user.click(screen.getByRole('checkbox', { name: 'Select all rows' }));
    await user.click(screen.getByRole('button', { name: 'Delete selected (1)' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(callsTo(resourceRoutes.remove)).toEqual([
        { query: { filter: JSON.stringify({ all: true, except: [], filter: {} }) } },
      ]),
    );
    expect(screen.getByRole('button', { name: 'Delete selected (1)' })).toBeEnabled();
  });
});
