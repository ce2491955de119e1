import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { projectRoutes, type Project } from '@pss/contract';
import { call } from '../../lib/api-client';
import { answerCalls, callsTo, refusal } from '../../test/api-stub';
import { fill, renderScreen } from '../../test/render-screen';
import { ProjectFormModal } from './project-form-modal';

vi.mock('../../lib/api-client', () => ({ call: vi.fn(), callRaw: vi.fn() }));
afterEach(() => vi.mocked(call).mockReset());

const clientId = '33333333-3333-4333-8333-333333333333';
const project: Project = {
  id: '11111111-1111-4111-8111-111111111111',
  client_id: clientId,
  client_name: 'North Clinic',
  name: 'Spring study',
  status: 'ARCHIVED',
  season_count: 1,
  data_status: 'READY',
  participant_counts: { active: 1, archived: 0, not_ready: 0 },
  notes: 'First run',
  support_email: null,
  support_phone: null,
  disease_types: [{ id: '88888888-8888-4888-8888-888888888881', name: 'Asthma' }],
  question_categories: [{ id: '88888888-8888-4888-8888-888888888882', name: 'Triage' }],
  seasons: [
    {
      id: '22222222-2222-4222-8222-222222222222',
      name: 'Spring',
      rounds: [
        { id: '44444444-4444-4444-8444-444444444444', number: 1, start_date: '2026-03-01', end_date: '2026-03-14' },
      ],
    },
  ],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

function renderForm(existing?: Project, answer: unknown = project) {
  answerCalls([
    [projectRoutes.create, answer],
    [projectRoutes.update, answer],
  ]);
  const onClose = vi.fn();
  const onSaved = vi.fn();
  const view = renderScreen(
    <ProjectFormModal opened clientId={clientId} project={existing} onClose={onClose} onSaved={onSaved} />,
  );
  return { ...view, onClose, onSaved };
}

const field = (name: string) => screen.getByRole('textbox', { name: new RegExp(`^${name}`) });
const picker = (name: string) => screen.getByRole('combobox', { name: new RegExp(`^${name}`) });
const save = () => screen.getByRole('button', { name: 'Save' });
/** A date field: typed as the browser's date picker sets it. */
const setDate = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('the project form', () => {
  it('asks for a name and one of each catalogue, in the catalogue’s words, and sends nothing', async () => {
    const { user } = renderForm();
    await user.click(save());
    await waitFor(() => expect(field('Project name')).toHaveAccessibleDescription('This field is required.'));
    expect(screen.getByText('A project needs at least one disease type.')).toBeVisible();
    expect(screen.getByText('A project needs at least one question category.')).toBeVisible();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Some fields have incorrect values. Please check them and try again.',
    );
    expect(callsTo(projectRoutes.create)).toEqual([]);
  });

  it('refuses a support address that is not one', async () => {
    const { user } = renderForm(project);
    await fill(user, field('Support email for this project'), 'nobody@');
    await user.click(save());
    await waitFor(() =>
      expect(field('Support email for this project')).toHaveAccessibleDescription(
        expect.stringContaining('Please enter a valid email address.'),
      ),
    );
    expect(callsTo(projectRoutes.update)).toEqual([]);
  });

  it('creates a project of this client with its catalogues and a season of two rounds', async () => {
    const { user, onSaved, onClose } = renderForm();
    await fill(user, field('Project name'), 'Spring study');
    await user.type(picker('Disease types'), 'Asthma{Enter}');
    await fill(user, picker('Question categories'), 'Triage, Dosing,');
    await user.click(screen.getByRole('button', { name: 'Add season' }));
    await user.type(field('Season name'), 'Spring');
    setDate('Season Spring Round 1 start date', '2026-03-01');
    setDate('Season Spring Round 1 end date', '2026-03-14');
    // A new round starts the day after the last ends, for two weeks.
    await user.click(screen.getByRole('button', { name: 'Add round' }));
    expect(screen.getByLabelText('Season Spring Round 2 start date')).toHaveValue('2026-03-15');
    expect(screen.getByLabelText('Season Spring Round 2 end date')).toHaveValue('2026-03-28');
    await user.click(save());
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(project));
    expect(onClose).toHaveBeenCalled();
    expect(callsTo(projectRoutes.create)).toEqual([
      {
        body: {
          client_id: clientId,
          name: 'Spring study',
          disease_types: ['Asthma'],
          question_categories: ['Triage', 'Dosing'],
          notes: null,
          support_email: null,
          support_phone: null,
          seasons: [
            {
              name: 'Spring',
              rounds: [
                { number: 1, start_date: '2026-03-01', end_date: '2026-03-14' },
                { number: 2, start_date: '2026-03-15', end_date: '2026-03-28' },
              ],
            },
          ],
        },
      },
    ]);
  });

  it('says beside a round that it must start after the one before, as the contract’s season rules do', async () => {
    const { user } = renderForm(project);
    await user.click(screen.getByRole('button', { name: 'Add round' }));
    setDate('Season Spring Round 2 start date', '2026-03-10');
    await user.click(save());
    await waitFor(() =>
      expect(screen.getByLabelText('Season Spring Round 2 start date')).toHaveAccessibleDescription(
        'Round 2 must start after Round 1 ends (2026-03-14)',
      ),
    );
    expect(callsTo(projectRoutes.update)).toEqual([]);
  });

  it('updates a project, keeping its status and its season’s id', async () => {
    const { user, onClose } = renderForm(project);
    expect(field('Project name')).toHaveValue('Spring study');
    await user.clear(field('Notes'));
    await user.click(save());
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(callsTo(projectRoutes.update)).toEqual([
      {
        params: { id: project.id },
        body: {
          name: 'Spring study',
          status: 'ARCHIVED',
          disease_types: ['Asthma'],
          question_categories: ['Triage'],
          notes: null,
          support_email: null,
          support_phone: null,
          seasons: [
            {
              id: project.seasons[0]!.id,
              name: 'Spring',
              rounds: [{ number: 1, start_date: '2026-03-01', end_date: '2026-03-14' }],
            },
          ],
        },
      },
    ]);
  });

  it('says why a save was refused and keeps the form open', async () => {
    const { user, onClose } = renderForm(project, refusal(409, 'SEASON_HAS_PARTICIPANT_WORK'));
    await user.click(screen.getByRole('button', { name: 'Remove season' }));
    await user.click(save());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'A season or round that participants are assigned to or have worked on cannot be removed',
    );
    expect(callsTo(projectRoutes.update)[0]?.body).toMatchObject({ seasons: [] });
    expect(onClose).not.toHaveBeenCalled();
  });

  it('puts the server’s field refusals beside their fields', async () => {
    const { user } = renderForm(
      project,
      refusal(400, 'VALIDATION_ERROR', [{ field: 'body.support_phone', errorCode: 'INVALID_PHONE' }]),
    );
    await user.type(field('Support phone for this project'), '555');
    await user.click(save());
    await waitFor(() =>
      expect(field('Support phone for this project')).toHaveAccessibleDescription(
        expect.stringContaining('Please enter a phone number of at most 60 characters'),
      ),
    );
  });
});
