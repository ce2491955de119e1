import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { moduleLibraryRoutes } from '@pss/contract';
import { call } from '../../lib/api-client';
import { answerCalls, callsTo, pageOf } from '../../test/api-stub';
import { renderScreen, searchOf } from '../../test/render-screen';
import { AssociatedProjectsPage } from './associated-projects-page';

vi.mock('../../lib/api-client', () => ({ call: vi.fn(), callRaw: vi.fn() }));
afterEach(() => vi.mocked(call).mockReset());

const moduleId = '66666666-6666-4666-8666-666666666666';
const holder = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Spring study',
  client_id: '33333333-3333-4333-8333-333333333333',
  client_name: 'North Clinic',
  copied_cases: 4,
};

function renderPage(rows = [holder], total = rows.length) {
  answerCalls([[moduleLibraryRoutes.associatedProjects, pageOf(rows, total)]]);
  return renderScreen(<AssociatedProjectsPage />, {
    url: `/module-library/${moduleId}/projects`,
    path: '/module-library/:id/projects',
  });
}

const lastQuery = () => callsTo(moduleLibraryRoutes.associatedProjects).at(-1);

describe('the projects using a module library', () => {
  it('lists each project holding copies of its cases, linked to that project’s cases', async () => {
    renderPage();
    const link = await screen.findByRole('link', { name: 'Spring study' });
    expect(link).toHaveAttribute('href', `/project-management/clients/${holder.client_id}/projects/${holder.id}/cases`);
    const row = within(screen.getByRole('table', { name: 'Projects using it' })).getAllByRole('row')[1]!;
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Spring study', 'North Clinic', '4']);
    expect(lastQuery()).toEqual({ params: { id: moduleId }, query: { page: 1, limit: 25 } });
  });

  it('sorts by client and pages through the address', async () => {
    const { user, address } = renderPage([holder], 40);
    await screen.findByRole('link', { name: 'Spring study' });
    await user.click(screen.getByRole('button', { name: 'Sort by Client' }));
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(searchOf(address())).toEqual({ sort: 'client_name:ASC', page: '2' }));
    await waitFor(() => expect(lastQuery()?.query).toEqual({ page: 2, limit: 25, sort: 'client_name:ASC' }));
  });

  it('says when no project holds a copy yet', async () => {
    renderPage([]);
    expect(await screen.findByText('No project holds a copy of this module’s cases yet.')).toBeInTheDocument();
  });
});
