import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { moduleLibraryRoutes, type ModuleLibrary, type ModuleSummary } from '@pss/contract';
import { call } from '../../lib/api-client';
import { answerCalls, callsTo, pageOf, refusal } from '../../test/api-stub';
import { fill, renderScreen, searchOf } from '../../test/render-screen';
import { ModuleFormModal } from './module-form-modal';
import { ModuleLibraryPage } from './module-library-page';

vi.mock('../../lib/api-client', () => ({ call: vi.fn(), callRaw: vi.fn() }));
afterEach(() => vi.mocked(call).mockReset());

const summary: ModuleSummary = {
  id: '66666666-6666-4666-8666-666666666666',
  name: 'Cardiology basics',
  description: null,
  case_count: 12,
  created_at: '2026-01-05T10:00:00.000Z',
  updated_at: '2026-01-05T10:00:00.000Z',
};
const saved: ModuleLibrary = {
  ...summary,
  id: '77777777-7777-4777-8777-777777777777',
  name: 'Oncology',
  disease_types: [{ id: '88888888-8888-4888-8888-888888888881', name: 'Lymphoma' }],
  question_categories: [{ id: '88888888-8888-4888-8888-888888888882', name: 'Diagnosis' }],
};

function renderPage(rows: ModuleSummary[] = [summary], url = '/module-library') {
  answerCalls([
    [moduleLibraryRoutes.list, pageOf(rows)],
    [moduleLibraryRoutes.create, saved],
  ]);
  return renderScreen(<ModuleLibraryPage />, { url });
}

const field = (name: string) => screen.getByRole('textbox', { name: new RegExp(`^${name}`) });
const lastQuery = () => callsTo(moduleLibraryRoutes.list).at(-1)?.query;

describe('the module library list', () => {
  it('shows each module library with a link to its cases', async () => {
    renderPage();
    const link = await screen.findByRole('link', { name: 'Cardiology basics' });
    expect(link).toHaveAttribute('href', `/module-library/${summary.id}/cases`);
    const row = within(screen.getByRole('table', { name: 'Module Library' })).getAllByRole('row')[1]!;
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Cardiology basics', '—', '12', expect.any(String)]);
    expect(lastQuery()).toEqual({ page: 1, limit: 25 });
  });

  it('sorts by the number of cases through the address', async () => {
    const { user, address } = renderPage();
    await screen.findByRole('link', { name: 'Cardiology basics' });
    await user.click(screen.getByRole('button', { name: 'Sort by Cases' }));
    await waitFor(() => expect(searchOf(address())).toEqual({ sort: 'case_count:ASC' }));
    await waitFor(() => expect(lastQuery()).toEqual({ page: 1, limit: 25, sort: 'case_count:ASC' }));
  });

  it('says there is none yet, or none matching a search', async () => {
    renderPage([]);
    expect(await screen.findByText('No module libraries yet. Create one with "New module library".')).toBeVisible();
  });

  it('says none matches the search in its address', async () => {
    renderPage([], '/module-library?search=zzz');
    expect(await screen.findByText('No module libraries match this search.')).toBeVisible();
    expect(lastQuery()).toEqual({ page: 1, limit: 25, search: 'zzz' });
  });

  it('creates a module library and opens its cases', async () => {
    const { user, address } = renderPage([]);
    await user.click(screen.getByRole('button', { name: 'New module library' }));
    await screen.findByRole('dialog', { name: 'New module library' });
    await fill(user, field('Name'), 'Oncology');
    await user.type(screen.getByRole('combobox', { name: /^Disease types/ }), 'Lymphoma{Enter}');
    await user.type(screen.getByRole('combobox', { name: /^Question categories/ }), 'Diagnosis{Enter}');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(address()).toBe(`/module-library/${saved.id}/cases`));
    expect(callsTo(moduleLibraryRoutes.create)).toEqual([
      {
        body: { name: 'Oncology', description: null, disease_types: ['Lymphoma'], question_categories: ['Diagnosis'] },
      },
    ]);
  });
});

describe('the module library form', () => {
  function renderForm(module?: ModuleLibrary, answer: unknown = saved) {
    answerCalls([
      [moduleLibraryRoutes.create, answer],
      [moduleLibraryRoutes.update, answer],
    ]);
    const onClose = vi.fn();
    return { ...renderScreen(<ModuleFormModal module={module} onClose={onClose} />), onClose };
  }

  it('asks for a name and at least one of each catalogue, in the catalogue’s words, and sends nothing', async () => {
    const { user } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(field('Name')).toHaveAccessibleDescription('This field is required.'));
    const dialog = screen.getByRole('dialog', { name: 'New module library' });
    expect(within(dialog).getByText('A project needs at least one disease type.')).toBeVisible();
    expect(within(dialog).getByText('A project needs at least one question category.')).toBeVisible();
    expect(callsTo(moduleLibraryRoutes.create)).toEqual([]);
  });

  it('updates a module library with its description, from what it holds', async () => {
    const { user, onClose } = renderForm(saved);
    expect(field('Name')).toHaveValue('Oncology');
    await fill(user, field('Description'), 'Blood cancers');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(saved));
    expect(callsTo(moduleLibraryRoutes.update)).toEqual([
      {
        params: { id: saved.id },
        body: {
          name: 'Oncology',
          description: 'Blood cancers',
          disease_types: ['Lymphoma'],
          question_categories: ['Diagnosis'],
        },
      },
    ]);
  });

  it('shows a refused save beside its field, or above the form, and stays open', async () => {
    const { user, onClose } = renderForm(
      saved,
      refusal(400, 'VALIDATION_ERROR', [{ field: 'body.name', errorCode: 'INVALID_NAME' }]),
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(field('Name')).toHaveAccessibleDescription('Please enter a valid name.'));
    answerCalls([[moduleLibraryRoutes.update, refusal(500, 'INTERNAL_ERROR')]]);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('An internal server error occurred.');
    expect(onClose).not.toHaveBeenCalled();
  });
});
