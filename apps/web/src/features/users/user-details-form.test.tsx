import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { userRoutes, type UserDetails } from '@pss/contract';
import { call } from '../../lib/api-client';
import { answerCalls, callsTo, refusal } from '../../test/api-stub';
import { fill, renderScreen } from '../../test/render-screen';
import { UserDetailsForm } from './user-details-form';

vi.mock('../../lib/api-client', () => ({ call: vi.fn(), callRaw: vi.fn() }));
afterEach(() => vi.mocked(call).mockReset());

const participant: UserDetails = {
  id: '55555555-5555-4555-8555-555555555551',
  email: 'ada@example.org',
  first_name: 'Ada',
  last_name: 'Lovelace',
  role: 'USER',
  client_id: null,
  client_name: null,
  employee_id: 'E-1',
  profession: 'MD',
  created_at: '2026-01-05T10:00:00.000Z',
  salutation: 'Dr.',
  secondary_email: null,
  mobile_number: null,
  display_name: null,
  npi: null,
  practice_number: null,
  facility: 'General Hospital',
  specialty: null,
  manager_first_name: null,
  manager_last_name: null,
  manager_email: null,
  user_type: null,
  projects: [],
};
const admin: UserDetails = { ...participant, role: 'ADMIN', profession: null, client_name: 'North Clinic' };

/** Every field as the form sends it once the contract has read it: trimmed, empty ones null. */
const stored = {
  email: 'ada@example.org',
  salutation: 'Dr.',
  first_name: 'Ada',
  last_name: 'Lovelace',
  display_name: null,
  secondary_email: null,
  mobile_number: null,
  npi: null,
  practice_number: null,
  facility: 'General Hospital',
  specialty: null,
  manager_first_name: null,
  manager_last_name: null,
  manager_email: null,
  user_type: null,
  profession: 'MD',
};

function renderForm(user: UserDetails = participant, answer: unknown = participant) {
  answerCalls([[userRoutes.update, answer]]);
  return renderScreen(<UserDetailsForm user={user} />);
}

const field = (name: string) => screen.getByRole('textbox', { name: new RegExp(`^${name}`) });
const save = () => screen.getByRole('button', { name: 'Save' });

describe('a user’s details', () => {
  it('shows what is stored, and the profession only for a participant', () => {
    renderForm();
    expect(field('Email')).toHaveValue('ada@example.org');
    expect(field('Facility / practice')).toHaveValue('General Hospital');
    expect(screen.getByText('Participant · User ID E-1')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Profession' })).toHaveValue('MD');
    expect(screen.queryByLabelText(/^New password/)).toBeNull();
  });

  it('checks each field as the contract does, beside it, and sends nothing', async () => {
    const { user } = renderForm();
    await user.clear(field('First name'));
    await user.type(field('Salutation'), '42');
    await user.clear(field('Manager email'));
    await user.type(field('Manager email'), 'boss@');
    await user.click(save());
    await waitFor(() => expect(field('First name')).toHaveAccessibleDescription('This field is required.'));
    expect(field('Salutation')).toHaveAccessibleDescription('Please enter a valid salutation.');
    expect(field('Manager email')).toHaveAccessibleDescription('Please enter a valid email address.');
    expect(callsTo(userRoutes.update)).toEqual([]);
  });

  it('sends every field as the contract reads it: trimmed, the empty ones null', async () => {
    const { user } = renderForm();
    await fill(user, field('Specialty'), '  Cardiology ');
    await user.clear(field('Facility / practice'));
    await user.click(save());
    await waitFor(() => expect(callsTo(userRoutes.update)).toHaveLength(1));
    expect(callsTo(userRoutes.update)[0]).toEqual({
      params: { id: participant.id },
      body: { ...stored, specialty: 'Cardiology', facility: null },
    });
  });

  it('sends a staff account’s new password only when one is typed', async () => {
    const { user } = renderForm(admin, admin);
    expect(screen.queryByRole('combobox', { name: 'Profession' })).toBeNull();
    await user.click(save());
    await waitFor(() => expect(callsTo(userRoutes.update)).toHaveLength(1));
    expect(callsTo(userRoutes.update)[0]?.body).not.toHaveProperty('password');

    await user.type(screen.getByLabelText(/^New password/), 'abc');
    await user.click(save());
    await waitFor(() =>
      expect(screen.getByLabelText(/^New password/)).toHaveAccessibleDescription(
        expect.stringContaining('The password must be at least 6 characters long.'),
      ),
    );
    await user.type(screen.getByLabelText(/^New password/), 'defgh');
    await user.click(save());
    await waitFor(() => expect(callsTo(userRoutes.update)).toHaveLength(2));
    expect(callsTo(userRoutes.update)[1]?.body).toMatchObject({ password: 'abcdefgh' });
    await waitFor(() => expect(screen.getByLabelText(/^New password/)).toHaveValue(''));
  });

  it('says beside the email that another user has it', async () => {
    const { user } = renderForm(participant, refusal(409, 'EMAIL_ALREADY_EXISTS'));
    await user.click(save());
    await waitFor(() =>
      expect(field('Email')).toHaveAccessibleDescription('A user with this email address already exists.'),
    );
  });

  it('says above the form why a save failed when no field explains it', async () => {
    const { user } = renderForm(participant, refusal(409, 'USER_UPDATE_BLOCKED_BY_IMPORT'));
    await user.click(save());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'User information cannot be changed while an import is in progress.',
    );
  });
});
