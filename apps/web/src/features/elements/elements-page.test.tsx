import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import {
  moduleElementRoutes,
  projectElementRoutes,
  type AnswerTag,
  type ImportJob,
  type KeyTakeaway,
  type ModuleLibrary,
  type Project,
} from '@pss/contract';
import { call } from '../../lib/api-client';
import { answerCalls, callsTo, refusal } from '../../test/api-stub';
import { renderScreen } from '../../test/render-screen';
import { ElementsPage } from './elements-page';

vi.mock('../../lib/api-client', () => ({ call: vi.fn(), callRaw: vi.fn() }));
afterEach(() => vi.mocked(call).mockReset());

const project: Project = {
  id: '11111111-1111-4111-8111-111111111111',
  client_id: '33333333-3333-4333-8333-333333333333',
  client_name: 'Client',
  name: 'Project',
  status: 'ACTIVE',
  season_count: 0,
  data_status: 'READY',
  participant_counts: { active: 0, archived: 0, not_ready: 0 },
  notes: null,
  support_email: null,
  support_phone: null,
  disease_types: [],
  question_categories: [],
  seasons: [],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};
const module: ModuleLibrary = {
  id: '66666666-6666-4666-8666-666666666666',
  name: 'Cardiology basics',
  description: null,
  disease_types: [],
  question_categories: [],
  case_count: 2,
  created_at: '2026-01-05T10:00:00.000Z',
  updated_at: '2026-01-05T10:00:00.000Z',
};

const caseA = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const caseB = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const takeaway = (case_id: string, case_name: string, position: number, text: string): KeyTakeaway => ({
  case_id,
  case_name,
  position,
  text,
  origin: 'CUSTOM',
});
const takeaways = [
  takeaway(caseA, 'Chest pain', 1, 'Take a history first'),
  takeaway(caseA, 'Chest pain', 2, 'Then an ECG'),
  takeaway(caseB, 'Palpitations', 1, 'Check the thyroid'),
];
const tag: AnswerTag = {
  case_id: caseA,
  case_name: 'Chest pain',
  question_id: 'cccccccc-cccc-4ccc-8ccc-cccccccccccc',
  question: 'What next?',
  choice_id: 'dddddddd-dddd-4ddd-8ddd-dddddddddddd',
  answer: 'ECG',
  tag: 'Guideline',
  origin: 'CUSTOM',
};
const job: ImportJob = {
  id: 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee',
  kind: 'SUMMARY',
  state: 'NOT_STARTED',
  file_name: 'takeaways.csv',
  total_rows: 3,
  processed_rows: 0,
  errors: [],
  created_at: '2026-02-01T10:00:00.000Z',
  finished_at: null,
};

function renderProject(keyTakeaways: unknown = { items: takeaways }, answerTags: unknown = { items: [tag] }) {
  answerCalls([
    [projectElementRoutes.keyTakeaways, keyTakeaways],
    [projectElementRoutes.answerTags, answerTags],
    [projectElementRoutes.uploadKeyTakeaways, job],
  ]);
  return renderScreen(<ElementsPage />, { path: '/elements', url: '/elements', context: { project } });
}

describe('the elements of a project', () => {
  it('lists the key takeaways case by case, in their order', async () => {
    renderProject();
    const cases = await screen.findAllByTestId('case-takeaways');
    expect(cases).toHaveLength(2);
    expect(within(cases[0]!).getByText('Chest pain')).toBeInTheDocument();
    expect(
      within(cases[0]!)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Take a history first', 'Then an ECG']);
    expect(
      within(cases[1]!)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Check the thyroid']);
    expect(callsTo(projectElementRoutes.keyTakeaways)).toEqual([{ params: { id: project.id } }]);
  });

  it('shows the answer tags in a table: case, question, answer and tag', async () => {
    renderProject();
    const table = await screen.findByRole('table', { name: 'Answer tags' });
    expect(
      within(table)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Chest pain', 'What next?', 'ECG', 'Guideline']);
  });

  it('says when there are none of either', async () => {
    renderProject({ items: [] }, { items: [] });
    expect(await screen.findByText('No key takeaways yet.')).toBeInTheDocument();
    expect(screen.getByText('No answer tags yet.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('says why the key takeaways could not be read', async () => {
    renderProject(refusal(503, 'DATABASE_UNAVAILABLE'));
    expect(
      await screen.findByText('The database could not be reached. Please try again in a moment.'),
    ).toBeInTheDocument();
  });

  it('uploads a file of key takeaways to the project and follows its import', async () => {
    const { user } = renderProject();
    const section = screen.getByRole('region', { name: 'Key takeaways' });
    const input = section.querySelector<HTMLInputElement>('input[type="file"]')!;
    const file = new File(['case_name,key_takeaway\n'], 'takeaways.csv', { type: 'text/csv' });
    await user.upload(input, file);
    await user.click(within(section).getByRole('button', { name: 'Upload key takeaways' }));
    await waitFor(() =>
      expect(callsTo(projectElementRoutes.uploadKeyTakeaways)).toEqual([{ params: { id: project.id }, file }]),
    );
    expect(await within(section).findByTestId('elements-import-SUMMARY')).toHaveTextContent('takeaways.csv');
  });
});

describe('the elements of a module library', () => {
  it('reads and uploads the module’s own elements', async () => {
    answerCalls([
      [moduleElementRoutes.keyTakeaways, { items: [] }],
      [moduleElementRoutes.answerTags, { items: [tag] }],
      [moduleElementRoutes.latestImport, null],
      [moduleElementRoutes.uploadAnswerTags, { ...job, kind: 'ANSWER_TAGS' }],
    ]);
    const { user } = renderScreen(<ElementsPage />, { path: '/elements', url: '/elements', context: { module } });
    expect(
      await screen.findByText('Elements of this module’s cases; copies in projects carry them along.'),
    ).toBeVisible();
    await screen.findByRole('table', { name: 'Answer tags' });
    expect(callsTo(moduleElementRoutes.answerTags)).toEqual([{ params: { id: module.id } }]);
    expect(callsTo(projectElementRoutes.answerTags)).toEqual([]);

    const section = screen.getByRole('region', { name: 'Answer tags' });
    const file = new File(['case_name,question,answer,tag\n'], 'tags.csv', { type: 'text/csv' });
    await user.upload(section.querySelector<HTMLInputElement>('input[type="file"]')!, file);
    await user.click(within(section).getByRole('button', { name: 'Upload answer tags' }));
    await waitFor(() =>
      expect(callsTo(moduleElementRoutes.uploadAnswerTags)).toEqual([{ params: { id: module.id }, file }]),
    );
  });
});
