import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { seasonSummaryRoutes, type Project, type RouteDefinition, type SeasonSummary } from '@pss/contract';
import { call } from '../../lib/api-client';
import { answerCalls, callsTo, refusal } from '../../test/api-stub';
import { fill, renderScreen } from '../../test/render-screen';
import { SeasonSummaryPage } from './season-summary-page';

vi.mock('../../lib/api-client', () => ({ call: vi.fn(), callRaw: vi.fn() }));
afterEach(() => vi.mocked(call).mockReset());

const seasonId = '22222222-2222-4222-8222-222222222222';
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
  seasons: [{ id: seasonId, name: 'Spring 2026', rounds: [] }],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};
const saved: SeasonSummary = {
  id: '99999999-9999-4999-8999-999999999999',
  project_id: project.id,
  season_id: seasonId,
  season_name: 'Spring 2026',
  title: 'What we found',
  description: '',
  greeting: 'Thank you all',
  video_url: null,
  sheet: null,
  video: null,
  status: 'DRAFT',
  posted_at: null,
  created_at: '2026-04-01T10:00:00.000Z',
  updated_at: '2026-04-01T10:00:00.000Z',
};

function renderEditor(summary: SeasonSummary | null, answers: [RouteDefinition, unknown][] = [], id = seasonId) {
  answerCalls([
    [seasonSummaryRoutes.get, { season_id: seasonId, season_name: 'Spring 2026', summary }],
    [seasonSummaryRoutes.save, saved],
    [seasonSummaryRoutes.setStatus, { ...saved, status: 'POSTED', posted_at: '2026-04-02T10:00:00.000Z' }],
    [seasonSummaryRoutes.setSheet, saved],
    ...answers,
  ]);
  return renderScreen(<SeasonSummaryPage />, { url: `/summary/${id}`, path: '/summary/:id', context: { project } });
}

const field = (name: string) => screen.getByRole('textbox', { name: new RegExp(`^${name}`) });
const save = () => screen.getByRole('button', { name: 'Save' });

describe('the season results summary editor', () => {
  it('opens a season without a summary as an empty draft, its files waiting for a first save', async () => {
    renderEditor(null);
    expect(await screen.findByRole('heading', { name: 'Season Results Summary: Spring 2026' })).toBeVisible();
    expect(screen.getByTestId('summary-status')).toHaveTextContent('Draft');
    expect(callsTo(seasonSummaryRoutes.get)).toEqual([
      { params: { id: project.id }, query: { seasonName: 'Spring 2026' } },
    ]);
    expect(save()).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Upload a sheet' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Upload a sheet' })).toHaveAccessibleDescription(
      'Save the summary before adding a sheet or a video.',
    );
  });

  it('asks for a title and a real link beside them, and saves nothing', async () => {
    const { user } = renderEditor(null);
    await user.type(await screen.findByRole('textbox', { name: /^Greeting/ }), 'Hello');
    await fill(user, field('Video link'), 'ftp://example.org/film');
    await user.click(save());
    await waitFor(() => expect(field('Title')).toHaveAccessibleDescription('This field is required.'));
    expect(field('Video link')).toHaveAccessibleDescription(expect.stringContaining('Please enter a valid URL.'));
    expect(callsTo(seasonSummaryRoutes.save)).toEqual([]);
  });

  it('saves the texts for the season by its name, trimmed, with no link as null', async () => {
    const { user } = renderEditor(null);
    await fill(user, await screen.findByRole('textbox', { name: /^Title/ }), 'What we found');
    await fill(user, field('Greeting'), '  Thank you all ');
    expect(screen.getByTestId('unsaved')).toHaveTextContent('Unsaved changes');
    await user.click(save());
    await waitFor(() =>
      expect(callsTo(seasonSummaryRoutes.save)).toEqual([
        {
          params: { id: project.id },
          query: { seasonName: 'Spring 2026' },
          body: { title: 'What we found', description: '', greeting: 'Thank you all', video_url: null },
        },
      ]),
    );
    await waitFor(() => expect(screen.queryByTestId('unsaved')).toBeNull());
  });

  it('puts the server’s refusal beside the field it names', async () => {
    const { user } = renderEditor(saved, [
      [
        seasonSummaryRoutes.save,
        refusal(400, 'VALIDATION_ERROR', [{ field: 'body.video_url', errorCode: 'INVALID_URL' }]),
      ],
    ]);
    await fill(user, await screen.findByRole('textbox', { name: /^Video link/ }), 'https://example.org/film');
    await user.click(save());
    await waitFor(() =>
      expect(field('Video link')).toHaveAccessibleDescription(expect.stringContaining('Please enter a valid URL.')),
    );
    expect(screen.getByTestId('unsaved')).toBeInTheDocument();
  });

  it('posts a saved summary after asking, by the summary’s id', async () => {
    const { user } = renderEditor(saved);
    expect(await screen.findByRole('textbox', { name: /^Title/ })).toHaveValue('What we found');
    await user.click(screen.getByRole('button', { name: 'Post' }));
    const dialog = await screen.findByRole('dialog', { name: 'Post this summary?' });
    expect(dialog).toHaveTextContent('every participant who completed Spring 2026');
    await user.click(within(dialog).getByRole('button', { name: 'Post' }));
    await waitFor(() =>
      expect(callsTo(seasonSummaryRoutes.setStatus)).toEqual([
        { params: { id: saved.id }, body: { status: 'POSTED' } },
      ]),
    );
    // Nothing had changed: the texts were not saved again.
    expect(callsTo(seasonSummaryRoutes.save)).toEqual([]);
    await waitFor(() => expect(screen.getByTestId('summary-status')).toHaveTextContent('Posted'));
  });

  it('uploads a sheet to the saved summary', async () => {
    const { user } = renderEditor(saved);
    const section = await screen.findByRole('region', { name: 'Sheet' });
    const sheet = new File(['%PDF-1.7'], 'results.pdf', { type: 'application/pdf' });
    await user.upload(section.querySelector<HTMLInputElement>('input[type="file"]')!, sheet);
    await waitFor(() =>
      expect(callsTo(seasonSummaryRoutes.setSheet)).toEqual([{ params: { id: saved.id }, file: sheet }]),
    );
  });

  it('says when the project has no such season, and reads nothing', async () => {
    renderEditor(null, [], '77777777-7777-4777-8777-777777777777');
    expect(await screen.findByRole('alert')).toHaveTextContent('This project has no such season.');
    expect(callsTo(seasonSummaryRoutes.get)).toEqual([]);
  });
});
