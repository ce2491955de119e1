import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { resourceRoutes, type Resource, type ResourceCaseUse } from '@pss/contract';
import { call } from '../../lib/api-client';
import { answerCalls, callsTo, refusal } from '../../test/api-stub';
import { fill, renderScreen } from '../../test/render-screen';
import { ResourceDetailsPage } from './resource-details-page';

vi.mock('../../lib/api-client', () => ({ call: vi.fn(), callRaw: vi.fn(), uploadWithProgress: vi.fn() }));
afterEach(() => vi.mocked(call).mockReset());

const link: Resource = {
  id: '77777777-7777-4777-8777-777777777771',
  name: 'Asthma guideline',
  source_type: 'URL',
  details: 'The 2026 edition',
  link: 'https://example.org/asthma',
  file: null,
  categories: [],
  attachment_status: 'ATTACHED_ACTIVE',
  attached_case_count: 1,
  duplicate_of: null,
  created_at: '2026-01-05T10:00:00.000Z',
  updated_at: '2026-01-05T10:00:00.000Z',
};
const clientId = '33333333-3333-4333-8333-333333333333';
const projectId = '11111111-1111-4111-8111-111111111111';
const use: ResourceCaseUse = {
  case_id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
  case_name: 'Chest pain',
  case_status: 'ACTIVE',
  project_id: projectId,
  project_name: 'Spring study',
  project_status: 'ACTIVE',
  module_id: null,
  module_name: null,
  client_id: clientId,
  client_name: 'North Clinic',
};

function renderDetails(update: unknown = link, cases: ResourceCaseUse[] = [use]) {
  answerCalls([
    [resourceRoutes.get, link],
    [resourceRoutes.cases, { items: cases }],
    [resourceRoutes.clients, { items: cases.length ? [{ id: clientId, name: 'North Clinic' }] : [] }],
    [resourceRoutes.categories, { items: [] }],
    [resourceRoutes.update, update],
  ]);
  return renderScreen(<ResourceDetailsPage />, { url: `/resource-library/${link.id}`, path: '/resource-library/:id' });
}

const field = (name: string) => screen.getByRole('textbox', { name: new RegExp(`^${name}`) });
const save = () => screen.getByRole('button', { name: 'Save' });

describe('a resource’s details', () => {
  it('checks the details as the contract does, beside each field, and saves nothing', async () => {
    const { user } = renderDetails();
    await user.clear(await screen.findByRole('textbox', { name: /^Name/ }));
    await user.clear(field('Link'));
    await fill(user, field('Link'), 'not a link');
    await user.click(save());
    await waitFor(() => expect(field('Name')).toHaveAccessibleDescription('This field is required.'));
    expect(field('Link')).toHaveAccessibleDescription('Please enter a valid URL.');
    expect(callsTo(resourceRoutes.update)).toEqual([]);
  });

  it('saves the details of a link', async () => {
    const { user } = renderDetails();
    await user.type(await screen.findByRole('textbox', { name: /^Details/ }), ', revised');
    await user.click(save());
    await waitFor(() =>
      expect(callsTo(resourceRoutes.update)).toEqual([
        {
          params: { id: link.id },
          body: {
            name: 'Asthma guideline',
            link: 'https://example.org/asthma',
            details: 'The 2026 edition, revised',
            category_ids: [],
          },
        },
      ]),
    );
  });

  it('says beside the link that the library holds it already', async () => {
    const { user } = renderDetails(refusal(409, 'URL_ALREADY_EXISTS'));
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    await waitFor(() => expect(field('Link')).toHaveAccessibleDescription('This URL already exists.'));
  });

  it('lists the cases it is attached to, each linked, and the clients', async () => {
    renderDetails();
    const link = await screen.findByRole('link', { name: 'Chest pain' });
    expect(link).toHaveAttribute(
      'href',
      `/project-management/clients/${clientId}/projects/${projectId}/cases/case-details/${use.case_id}`,
    );
    const section = screen.getByRole('region', { name: 'Where it is used' });
    expect(
      within(section)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Chest pain', 'Spring study', 'North Clinic', 'ACTIVE']);
    expect(section).toHaveTextContent('Clients: North Clinic');
  });

  it('says when it is attached to no case', async () => {
    renderDetails(link, []);
    expect(await screen.findByText('Not attached to any case.')).toBeInTheDocument();
  });
});
