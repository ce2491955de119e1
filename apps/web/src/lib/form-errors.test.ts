import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { clientBody, saveEmailBody } from '@pss/contract';
import { t } from './i18n';
import { ApiError } from './api-error';
import { contractResolver, saveErrors, showSaveErrors } from './form-errors';

describe('errors of a failed save', () => {
  it('puts each field of a VALIDATION_ERROR beside its field, without the request part', () => {
    const error = new ApiError(400, 'VALIDATION_ERROR', 'x', {
      fields: [
        { field: 'body.email', message: 'Invalid email' },
        { field: 'body.seasons.0.rounds.1.start_date', message: 'Round 2 must start after Round 1 ends' },
        { field: 'querystring.page', message: 'Too small' },
        { field: 'body.password', message: 'x', errorCode: 'PASSWORD_TOO_SHORT' },
      ],
    });
    expect(saveErrors(error, t)).toEqual({
      fields: {
        email: 'Invalid email',
        'seasons.0.rounds.1.start_date': 'Round 2 must start after Round 1 ends',
        page: 'Too small',
        password: 'The password must be at least 6 characters long.',
      },
      form: null,
    });
  });

  it('puts a code that belongs to one field beside that field, and anything else on the form', () => {
    const duplicate = new ApiError(409, 'CLIENT_CAP_ID_ALREADY_EXISTS', 'x');
    expect(saveErrors(duplicate, t, { CLIENT_CAP_ID_ALREADY_EXISTS: 'cap_id' })).toEqual({
      fields: { cap_id: 'A client with this CAP ID already exists.' },
      form: null,
    });
    expect(saveErrors(new ApiError(403, 'FORBIDDEN', 'x'), t)).toEqual({
      fields: {},
      form: 'You do not have permission to do this.',
    });
  });
});

describe('contract schemas on a form', () => {
  const schema = z.strictObject({
    email: z.string().trim().min(1, 'EMAIL_REQUIRED'),
    seasons: z.array(z.strictObject({ name: z.string().min(1, 'Name the season') })),
  });

  it('maps each issue to its field path, translating catalogue codes', () => {
    const validate = contractResolver(schema, t);
    expect(validate({ email: ' ', seasons: [{ name: 'A' }, { name: '' }] })).toEqual({
      email: t('errors.EMAIL_REQUIRED'),
      'seasons.1.name': 'Name the season',
    });
    expect(validate({ email: 'a@b.c', seasons: [] })).toEqual({});
  });

  it('checks the body the form would send', () => {
    const validate = contractResolver(schema, t, (values: { mail: string }) => ({ email: values.mail, seasons: [] }));
    expect(validate({ mail: 'x' })).toEqual({});
  });

  it('puts a failed save on the fields and answers the message for the form', () => {
    const form = { setErrors: vi.fn() };
    const error = new ApiError(400, 'VALIDATION_ERROR', 'x', { fields: [{ field: 'body.name', message: 'Too long' }] });
    expect(showSaveErrors(form, error, t)).toBeNull();
    expect(form.setErrors).toHaveBeenCalledWith({ name: 'Too long' });
    expect(showSaveErrors(form, new ApiError(403, 'FORBIDDEN', 'x'), t)).toBe('You do not have permission to do this.');
    expect(form.setErrors).toHaveBeenLastCalledWith({});
  });
});

describe('the text rule on a form (spec §5)', () => {
  it('says beside the field that a text of spaces, or of empty paragraphs, is blank', () => {
    const client = contractResolver(clientBody, t);
    expect(client({ name: '' })).toEqual({ name: t('errors.FIELD_REQUIRED') });
    expect(client({ name: '   ' })).toEqual({ name: t('errors.BLANK_TEXT') });
    const email = contractResolver(saveEmailBody, t);
    const texts = { subject: 'Round 2', body: '<p></p><p> </p>', button_text: 'Open', dashboard_url_text: '' };
    expect(email({ ...texts, send_mode: 'MANUAL' })).toEqual({ body: t('errors.BLANK_TEXT') });
    expect(t('errors.BLANK_TEXT')).toBe('This field cannot be empty or contain only spaces.');
  });
});
