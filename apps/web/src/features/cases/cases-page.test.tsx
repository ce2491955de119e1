import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { caseRoutes, moduleLibraryRoutes, type CaseSummary, type ModuleLibrary, type Project } from '@pss/contract';
import { call } from '../../lib/api-client';
import { answerCalls, callsTo, pageOf } from '../../test/api-stub';
import { renderScreen, searchOf } from '../../test/render-screen';
import { CasesPage } from './cases-page';

vi.mock('../../lib/api-client', () => ({ call: vi.fn(), callRaw: vi.fn(), uploadWithProgress: vi.fn() }));
afterEach(() => vi.mocked(call).mockReset());

const project: Project = {
  id: '11111111-1111-4111-8111-111111111111',
  client_id: '33333333-3333-4333-8333-333333333333',
  client_name: 'Client',
  name: 'Project',
  status: 'ACTIVE',
  season_count: 1,
  data_status: 'READY',
  participant_counts: { active: 1, archived: 0, not_ready: 0 },
  notes: null,
  support_email: null,
  support_phone: null,
  disease_types: [],
  question_categories: [],
  seasons: [],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};
const casesPath = `/project-management/clients/${project.client_id}/projects/${project.id}/cases`;

function caseNamed(n: number, name: string, more: Partial<CaseSummary> = {}): CaseSummary {
  return {
    id: `aaaaaaaa-aaaa-4aaa-8aaa-${String(n).padStart(12, '0')}`,
    project_id: project.id,
    origin: 'CUSTOM',
    status: 'DRAFT',
    name,
    patient_name: '',
    disease_type_name: null,
    season_name: null,
    round_number: null,
    question_count: 0,
    created_at: '2026-01-05T10:00:00.000Z',
    updated_at: '2026-01-05T10:00:00.000Z',
    ...more,
  };
}

const chestPain = caseNamed(1, 'Chest pain', {
  patient_name: 'Mr Smith',
  disease_type_name: 'Cardiology',
  season_name: 'Spring',
  round_number: 2,
  question_count: 5,
  status: 'PUBLISHED',
});
const cough = caseNamed(2, 'Cough');

function renderCases(rows: CaseSummary[] = [chestPain, cough], url = casesPath) {
  answerCalls([[caseRoutes.list, pageOf(rows)]]);
  return renderScreen(<CasesPage />, { url, path: casesPath, context: { project } });
}

const lastQuery = () => callsTo(caseRoutes.list).at(-1);
const cellsOf = (name: string) =>
  within(screen.getByRole('link', { name }).closest('tr')!)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

describe('the cases table', () => {
  it('shows each case of the project: where it is placed, its questions and status', async () => {
    renderCases();
    expect(await screen.findByRole('link', { name: 'Chest pain' })).toHaveAttribute(
      'href',
      `${casesPath}/case-details/${chestPain.id}`,
    );
    expect(cellsOf('Chest pain').slice(1, 7)).toEqual([
      'Chest pain',
      'Mr Smith',
      'Cardiology',
      'Spring, round 2',
      '5',
      'Published',
    ]);
    expect(cellsOf('Cough').slice(1, 7)).toEqual(['Cough', '—', '—', 'Not placed', '0', 'Draft']);
    expect(lastQuery()).toEqual({ params: { id: project.id }, query: { page: 1, limit: 25 } });
  });

  it('filters by status and sorts through the address', async () => {
    const { user, address } = renderCases();
    await screen.findByRole('link', { name: 'Chest pain' });
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Active' }));
    await waitFor(() => expect(searchOf(address())).toEqual({ status: 'ACTIVE' }));
    await waitFor(() => expect(lastQuery()?.query).toEqual({ page: 1, limit: 25, filter: '{"status":"ACTIVE"}' }));
    await user.click(screen.getByRole('button', { name: 'Sort by Patient name' }));
    await waitFor(() => expect(lastQuery()?.query).toMatchObject({ sort: 'patient_name:ASC' }));
  });

  it('says there are no cases yet, or none matching', async () => {
    renderCases([]);
    expect(await screen.findByText('No cases yet. Create one with "New case".')).toBeInTheDocument();
  });

  it('says none matches a search', async () => {
    renderCases([], `${casesPath}?search=zzz`);
    expect(await screen.findByText('No cases match this search or filter.')).toBeInTheDocument();
  });

  it('offers to move or delete the cases chosen', async () => {
    const { user } = renderCases();
    await screen.findByRole('link', { name: 'Chest pain' });
    expect(screen.queryByRole('button', { name: /^Delete/ })).toBeNull();
    await user.click(screen.getByRole('checkbox', { name: 'Select all rows' }));
    expect(screen.getByRole('button', { name: 'Move 2 to another project' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete 2' })).toBeInTheDocument();
  });
});

describe('the cases of a module library', () => {
  it('reads the module’s cases and offers to copy them rather than move', async () => {
    const module: ModuleLibrary = {
      id: '66666666-6666-4666-8666-666666666666',
      name: 'Cardiology basics',
      description: null,
      disease_types: [],
      question_categories: [],
      case_count: 1,
      created_at: '2026-01-05T10:00:00.000Z',
      updated_at: '2026-01-05T10:00:00.000Z',
    };
    answerCalls([[moduleLibraryRoutes.cases, pageOf([cough])]]);
    const { user } = renderScreen(<CasesPage />, { url: '/cases', path: '/cases', context: { module } });
    expect(await screen.findByRole('link', { name: 'Cough' })).toHaveAttribute(
      'href',
      `/module-library/${module.id}/cases/case-details/${cough.id}`,
    );
    expect(callsTo(moduleLibraryRoutes.cases)).toEqual([{ params: { id: module.id }, query: { page: 1, limit: 25 } }]);
    await user.click(screen.getByRole('checkbox', { name: 'Select row' }));
    expect(screen.getByRole('button', { name: /^Copy 1/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Move/ })).toBeNull();
  });
});
