import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { cmeRoutes, updateCmeBody, type Cme } from '@pss/contract';
import { call } from '../../lib/api-client';
import { answerCalls, callsTo, pageOf, refusal } from '../../test/api-stub';
import { fill, renderScreen, searchOf } from '../../test/render-screen';
import { CmeFormModal } from './cme-form-modal';
import { CmesPage } from './cmes-page';

vi.mock('../../lib/api-client', () => ({ call: vi.fn(), callRaw: vi.fn() }));
afterEach(() => vi.mocked(call).mockReset());

const projectId = '22222222-2222-4222-8222-222222222222';
const cme: Cme = {
  id: '33333333-3333-4333-8333-333333333333',
  project_id: projectId,
  min_cases: 4,
  credits: 1.5,
  moc: true,
  totera_course_id: 'TOT-7',
  custom: null,
  created_at: '2026-01-05T10:00:00.000Z',
  updated_at: '2026-01-05T10:00:00.000Z',
};

function renderPage(rows: Cme[] = [cme], total = rows.length, url = `/projects/${projectId}/cmes`) {
  answerCalls([
    [cmeRoutes.list, pageOf(rows, total)],
    [cmeRoutes.create, cme],
    [cmeRoutes.update, cme],
  ]);
  return renderScreen(<CmesPage />, { url, path: '/projects/:projectId/cmes' });
}

function renderForm(existing?: Cme) {
  const onClose = vi.fn();
  return { ...renderScreen(<CmeFormModal opened projectId={projectId} cme={existing} onClose={onClose} />), onClose };
}

const field = (name: string) => screen.getByRole('textbox', { name: new RegExp(`^${name}`) });
const lastListQuery = () => callsTo(cmeRoutes.list).at(-1);
/** What the contract's schema says of a bad credits value: the form shows the same words. */
const schemaMessage = (credits: number) =>
  updateCmeBody.shape.credits.safeParse(credits).error?.issues[0]?.message ?? 'accepted';

describe('the CME credits table', () => {
  it('shows each credit of the project with its terms', async () => {
    renderPage();
    const table = await screen.findByRole('table', { name: 'CME credits' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    expect(
      within(within(table).getAllByRole('row')[1]!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['4', '1.5', 'Yes', 'TOT-7', '—', 'EditDelete']);
    expect(lastListQuery()).toEqual({ params: { id: projectId }, query: { page: 1, limit: 25 } });
  });

  it('sorts and pages through the address', async () => {
    const { user, address } = renderPage([cme], 30);
    await screen.findByRole('cell', { name: 'TOT-7' });
    await user.click(screen.getByRole('button', { name: 'Sort by Credits' }));
    await waitFor(() => expect(lastListQuery()?.query).toEqual({ page: 1, limit: 25, sort: 'credits:ASC' }));
    await user.click(screen.getByRole('button', { name: 'Page 2 of 2' }));
    await waitFor(() => expect(searchOf(address())).toEqual({ sort: 'credits:ASC', page: '2' }));
    await waitFor(() => expect(lastListQuery()?.query).toEqual({ page: 2, limit: 25, sort: 'credits:ASC' }));
  });

  it('says how to add the first credit when there is none', async () => {
    renderPage([]);
    expect(await screen.findByText('No CME credits yet. Add one with "New CME credit".')).toBeInTheDocument();
  });

  it('opens the form for a new credit of this project', async () => {
    const { user } = renderPage([]);
    await user.click(screen.getByRole('button', { name: 'New CME credit' }));
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(callsTo(cmeRoutes.create)).toEqual([
        { body: { project_id: projectId, min_cases: 1, credits: 1, moc: false, totera_course_id: null, custom: null } },
      ]),
    );
  });
});

describe('the CME credit form', () => {
  it('refuses credits that are not quarters, with the contract’s words, and sends nothing', async () => {
    answerCalls([[cmeRoutes.create, cme]]);
    const { user } = renderForm();
    await user.clear(field('Credits'));
    await user.type(field('Credits'), '0.3');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(field('Credits')).toHaveAccessibleDescription(expect.stringContaining(schemaMessage(0.3))),
    );
    expect(schemaMessage(0.3)).not.toBe('accepted');
    expect(callsTo(cmeRoutes.create)).toEqual([]);
  });

  it('refuses an empty number of cases rather than sending zero', async () => {
    answerCalls([[cmeRoutes.create, cme]]);
    const { user } = renderForm();
    await user.clear(field('Minimum cases'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(field('Minimum cases')).toHaveAccessibleDescription(/.+/));
    expect(callsTo(cmeRoutes.create)).toEqual([]);
  });

  it('sends the credit’s terms, the texts trimmed and empty ones as null', async () => {
    answerCalls([[cmeRoutes.create, cme]]);
    const { user, onClose } = renderForm();
    await user.clear(field('Minimum cases'));
    await user.type(field('Minimum cases'), '6');
    await user.clear(field('Credits'));
    await user.type(field('Credits'), '2.25');
    await user.click(screen.getByRole('checkbox', { name: 'Counts for MOC' }));
    await fill(user, field('Totera course ID'), '  TOT-9  ');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(callsTo(cmeRoutes.create)).toEqual([
      {
        body: {
          project_id: projectId,
          min_cases: 6,
          credits: 2.25,
          moc: true,
          totera_course_id: 'TOT-9',
          custom: null,
        },
      },
    ]);
  });

  it('updates an existing credit by its id', async () => {
    answerCalls([[cmeRoutes.update, cme]]);
    const { user, onClose } = renderForm(cme);
    expect(field('Minimum cases')).toHaveValue('4');
    await fill(user, field('Custom text'), 'Course 2026');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(callsTo(cmeRoutes.update)).toEqual([
      {
        params: { id: cme.id },
        body: { min_cases: 4, credits: 1.5, moc: true, totera_course_id: 'TOT-7', custom: 'Course 2026' },
      },
    ]);
  });

  it('shows the server’s refusal beside the field it names, or above the form', async () => {
    answerCalls([
      [cmeRoutes.create, refusal(400, 'VALIDATION_ERROR', [{ field: 'body.credits', errorCode: 'FIELD_REQUIRED' }])],
    ]);
    const { user, onClose } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(field('Credits')).toHaveAccessibleDescription(expect.stringContaining('This field is required.')),
    );
    answerCalls([[cmeRoutes.create, refusal(404, 'PROJECT_NOT_FOUND')]]);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The project does not exist.');
    expect(onClose).not.toHaveBeenCalled();
  });
});
