import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { projectRoutes, type Project, type ProjectSummary } from '@pss/contract';
import { call } from '../../lib/api-client';
import { answerCalls, callsTo, pageOf } from '../../test/api-stub';
import { fill, renderScreen, searchOf } from '../../test/render-screen';
import { ClientProjectsSection } from './client-projects-section';

vi.mock('../../lib/api-client', () => ({ call: vi.fn(), callRaw: vi.fn() }));
afterEach(() => vi.mocked(call).mockReset());

const clientId = '33333333-3333-4333-8333-333333333333';
const base = `/project-management/clients/${clientId}`;

function summary(n: number, name: string, more: Partial<ProjectSummary> = {}): ProjectSummary {
  return {
    id: `11111111-1111-4111-8111-${String(n).padStart(12, '0')}`,
    client_id: clientId,
    client_name: 'North Clinic',
    name,
    status: 'ACTIVE',
    season_count: 1,
    data_status: 'READY',
    participant_counts: { active: 0, archived: 0, not_ready: 0 },
    created_at: '2026-01-05T10:00:00.000Z',
    updated_at: '2026-01-06T10:00:00.000Z',
    ...more,
  };
}

const spring = summary(1, 'Spring study', { season_count: 2 });
const old = summary(2, 'Old study', { status: 'ARCHIVED', data_status: 'NO_USERS', season_count: 0 });
const created: Project = {
  ...summary(3, 'New study'),
  notes: null,
  support_email: null,
  support_phone: null,
  disease_types: [],
  question_categories: [],
  seasons: [],
};

function renderSection(rows: ProjectSummary[] = [spring, old], url = base) {
  answerCalls([
    [projectRoutes.listForClient, pageOf(rows)],
    [projectRoutes.create, created],
  ]);
  return renderScreen(<ClientProjectsSection clientId={clientId} />, { url });
}

const lastQuery = () => callsTo(projectRoutes.listForClient).at(-1);

describe('a client’s projects', () => {
  it('shows each project with a link, its status, seasons and data status', async () => {
    renderSection();
    const link = await screen.findByRole('link', { name: 'Spring study' });
    expect(link).toHaveAttribute('href', `${base}/projects/${spring.id}`);
    const rows = within(screen.getByRole('table', { name: 'Projects' }))
      .getAllByRole('row')
      .slice(1);
    expect(
      within(rows[0]!)
        .getAllByRole('cell')
        .slice(0, 4)
        .map((cell) => cell.textContent),
    ).toEqual(['Spring study', 'Active', '2', 'Ready']);
    expect(
      within(rows[1]!)
        .getAllByRole('cell')
        .slice(0, 4)
        .map((cell) => cell.textContent),
    ).toEqual(['Old study', 'Archived', '0', 'No users']);
    expect(lastQuery()).toEqual({ params: { id: clientId }, query: { page: 1, limit: 25 } });
  });

  it('filters by status and sorts through the address', async () => {
    const { user, address } = renderSection();
    await screen.findByRole('link', { name: 'Spring study' });
    await user.click(screen.getByRole('radio', { name: 'Archived' }));
    await waitFor(() => expect(searchOf(address())).toEqual({ status: 'ARCHIVED' }));
    await waitFor(() => expect(lastQuery()?.query).toEqual({ page: 1, limit: 25, filter: '{"status":"ARCHIVED"}' }));
    await user.click(screen.getByRole('button', { name: 'Sort by Updated' }));
    await waitFor(() =>
      expect(lastQuery()?.query).toEqual({
        page: 1,
        limit: 25,
        sort: 'updated_at:ASC',
        filter: '{"status":"ARCHIVED"}',
      }),
    );
    expect(screen.getByRole('columnheader', { name: /Updated/ })).toHaveAttribute('aria-sort', 'ascending');
  });

  it('says the client has no projects yet, and how to make the first', async () => {
    renderSection([]);
    expect(
      await screen.findByText('This client has no projects yet. Create the first with "New project".'),
    ).toBeInTheDocument();
  });

  it('says none matches a status filter', async () => {
    renderSection([], `${base}?status=ACTIVE`);
    expect(await screen.findByText('No projects match.')).toBeInTheDocument();
  });

  it('opens the project it creates', async () => {
    const { user, address } = renderSection([]);
    await user.click(screen.getByRole('button', { name: 'New project' }));
    const dialog = await screen.findByRole('dialog', { name: 'New project' });
    await fill(user, within(dialog).getByRole('textbox', { name: /^Project name/ }), 'New study');
    await user.type(within(dialog).getByRole('combobox', { name: /^Disease types/ }), 'Asthma{Enter}');
    await user.type(within(dialog).getByRole('combobox', { name: /^Question categories/ }), 'Triage{Enter}');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(address()).toBe(`${base}/projects/${created.id}`));
    expect(callsTo(projectRoutes.create)).toHaveLength(1);
  });
});
