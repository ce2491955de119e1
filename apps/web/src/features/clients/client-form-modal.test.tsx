import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { clientRoutes, type Client } from '@pss/contract';
import { call } from '../../lib/api-client';
import { answerCalls, callsTo, refusal } from '../../test/api-stub';
import { fill, renderScreen } from '../../test/render-screen';
import { ClientFormModal } from './client-form-modal';

vi.mock('../../lib/api-client', () => ({ call: vi.fn(), callRaw: vi.fn() }));
afterEach(() => vi.mocked(call).mockReset());

const client: Client = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'North Clinic',
  cap_id: 'CAP-1',
  cap_status: 'Active',
  support_email: null,
  support_phone: null,
  contact_email: null,
  project_count: 0,
  created_at: '2026-01-05T10:00:00.000Z',
  updated_at: '2026-01-05T10:00:00.000Z',
};

function renderForm(existing?: Client) {
  const onClose = vi.fn();
  const view = renderScreen(<ClientFormModal opened client={existing} onClose={onClose} />);
  return { ...view, onClose };
}

const field = (name: string) => screen.getByRole('textbox', { name: new RegExp(`^${name}`) });
const save = () => screen.getByRole('button', { name: 'Save' });

describe('the client form', () => {
  it('checks the fields as the contract does, says why beside each, and sends nothing', async () => {
    answerCalls([[clientRoutes.create, client]]);
    const { user } = renderForm();
    await user.click(save());
    await waitFor(() => expect(field('Client name')).toHaveAccessibleDescription('This field is required.'));

    await user.type(field('Client name'), '   ');
    await fill(user, field('Support email'), 'not-an-address');
    await user.click(save());
    await waitFor(() =>
      expect(field('Client name')).toHaveAccessibleDescription('This field cannot be empty or contain only spaces.'),
    );
    expect(field('Support email')).toHaveAccessibleDescription(
      expect.stringContaining('Please enter a valid email address.'),
    );
    expect(callsTo(clientRoutes.create)).toEqual([]);
  });

  it('creates the client with its fields trimmed and the empty ones as null, then closes', async () => {
    answerCalls([[clientRoutes.create, { ...client, name: 'South Clinic' }]]);
    const { user, onClose } = renderForm();
    await fill(user, field('Client name'), 'South Clinic');
    await fill(user, field('CAP ID'), '  CAP-9 ');
    await fill(user, field('Support phone'), '+1 555 0100');
    await user.click(save());
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(callsTo(clientRoutes.create)).toEqual([
      {
        body: {
          name: 'South Clinic',
          cap_id: 'CAP-9',
          cap_status: null,
          support_email: null,
          support_phone: '+1 555 0100',
          contact_email: null,
        },
      },
    ]);
  });

  it('edits a client in place, starting from what it holds', async () => {
    answerCalls([[clientRoutes.update, client]]);
    const { user, onClose } = renderForm(client);
    expect(screen.getByRole('dialog', { name: 'Edit client' })).toBeInTheDocument();
    expect(field('Client name')).toHaveValue('North Clinic');
    await user.clear(field('CAP status'));
    await user.click(save());
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(callsTo(clientRoutes.update)).toEqual([
      {
        params: { id: client.id },
        body: {
          name: 'North Clinic',
          cap_id: 'CAP-1',
          cap_status: null,
          support_email: null,
          support_phone: null,
          contact_email: null,
        },
      },
    ]);
  });

  it('shows a refused save beside its field (a CAP ID taken, a field the server refused)', async () => {
    answerCalls([[clientRoutes.create, refusal(409, 'CLIENT_CAP_ID_ALREADY_EXISTS')]]);
    const { user, onClose } = renderForm();
    await fill(user, field('Client name'), 'South Clinic');
    await user.type(field('CAP ID'), 'CAP-1');
    await user.click(save());
    await waitFor(() =>
      expect(field('CAP ID')).toHaveAccessibleDescription(
        expect.stringContaining('A client with this CAP ID already exists.'),
      ),
    );
    expect(screen.queryByRole('alert')).toBeNull();

    answerCalls([
      [
        clientRoutes.create,
        refusal(400, 'VALIDATION_ERROR', [{ field: 'body.support_phone', errorCode: 'INVALID_PHONE' }]),
      ],
    ]);
    await user.click(save());
    await waitFor(() =>
      expect(field('Support phone')).toHaveAccessibleDescription(
        expect.stringContaining('Please enter a phone number'),
      ),
    );
    expect(onClose).not.toHaveBeenCalled();
  });

  it('says above the form why a save failed when no field explains it, and stays open', async () => {
    answerCalls([[clientRoutes.create, refusal(503, 'DATABASE_UNAVAILABLE')]]);
    const { user, onClose } = renderForm();
    await fill(user, field('Client name'), 'South Clinic');
    await user.click(save());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The database could not be reached. Please try again in a moment.',
    );
    expect(onClose).not.toHaveBeenCalled();
  });
});
