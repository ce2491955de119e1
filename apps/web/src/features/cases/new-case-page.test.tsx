import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { caseRoutes, type Project } from '@pss/contract';
import { call } from '../../lib/api-client';
import { answerCalls, callsTo, refusal } from '../../test/api-stub';
import { fill, renderScreen } from '../../test/render-screen';
import { NewCasePage } from './new-case-page';

vi.mock('../../lib/api-client', () => ({ call: vi.fn(), callRaw: vi.fn(), uploadWithProgress: vi.fn() }));
afterEach(() => vi.mocked(call).mockReset());

const cardiology = { id: '88888888-8888-4888-8888-888888888881', name: 'Cardiology' };
const asthma = { id: '88888888-8888-4888-8888-888888888882', name: 'Asthma' };
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
  disease_types: [cardiology, asthma],
  question_categories: [],
  seasons: [],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};
const casesPath = `/project-management/clients/${project.client_id}/projects/${project.id}/cases`;
const created = { id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' };

function renderNewCase(answer: unknown = created, home: Project = project) {
  answerCalls([[caseRoutes.create, answer]]);
  return renderScreen(<NewCasePage />, {
    url: `${casesPath}/new`,
    path: `${casesPath}/new`,
    context: { project: home },
  });
}

const name = () => screen.getByRole('textbox', { name: /^Case name/ });
const create = () => screen.getByRole('button', { name: 'Create and open' });

describe('a new case', () => {
  it('asks for a name that is not blank, beside the field, and creates nothing', async () => {
    const { user } = renderNewCase();
    await user.click(create());
    await waitFor(() => expect(name()).toHaveAccessibleDescription('This field is required.'));
    await user.type(name(), '  ');
    await user.click(create());
    await waitFor(() =>
      expect(name()).toHaveAccessibleDescription('This field cannot be empty or contain only spaces.'),
    );
    expect(callsTo(caseRoutes.create)).toEqual([]);
  });

  it('creates the case in the project with the disease type picked, and opens its editor', async () => {
    const { user, address } = renderNewCase();
    await fill(user, name(), 'Chest pain');
    await user.click(screen.getByRole('combobox', { name: 'Disease type' }));
    await user.click(await screen.findByRole('option', { name: 'Asthma' }));
    await user.click(create());
    await waitFor(() => expect(address()).toBe(`${casesPath}/case-details/${created.id}?newCase=true`));
    expect(callsTo(caseRoutes.create)).toEqual([
      { body: { project_id: project.id, name: 'Chest pain', disease_type_id: asthma.id } },
    ]);
  });

  it('picks a project’s only disease type for it', async () => {
    const { user } = renderNewCase(created, { ...project, disease_types: [cardiology] });
    expect(screen.getByRole('combobox', { name: 'Disease type' })).toHaveValue('Cardiology');
    await fill(user, name(), 'Chest pain');
    await user.click(create());
    await waitFor(() => expect(callsTo(caseRoutes.create)[0]?.body).toMatchObject({ disease_type_id: cardiology.id }));
  });

  it('says beside the disease type that the project does not have it', async () => {
    const { user, address } = renderNewCase(refusal(422, 'WRONG_DISEASE_TYPE'));
    await fill(user, name(), 'Chest pain');
    await user.click(create());
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Disease type' })).toHaveAccessibleDescription(
        "The case's disease type does not match the project's disease type.",
      ),
    );
    expect(address()).toBe(`${casesPath}/new`);
  });

  it('says above the form why a creation failed when no field explains it', async () => {
    const { user } = renderNewCase(refusal(403, 'FORBIDDEN'));
    await fill(user, name(), 'Chest pain');
    await user.click(create());
    expect(await screen.findByRole('alert')).toHaveTextContent('You do not have permission to do this.');
  });
});
