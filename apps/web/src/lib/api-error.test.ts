import { describe, expect, it } from 'vitest';
import { t } from './i18n';
import { ApiError, errorMessage } from './api-error';
import { clientRoutes, caseRoutes } from '@pss/contract';
import { pathOf } from './api-client';

describe('error messages', () => {
  it('shows the translated catalogue message', () => {
    expect(errorMessage(new ApiError(409, 'CLIENT_HAS_PROJECTS', 'server words'), t)).toBe(
      'This client cannot be deleted because it has projects attached.',
    );
  });

  it("shows the server's message for the families that ask for it", () => {
    expect(errorMessage(new ApiError(422, 'FIRST_NAME_REQUIRED', 'Line 4: first_name is empty.'), t)).toBe(
      'Line 4: first_name is empty.',
    );
    expect(errorMessage(new ApiError(422, 'FIRST_NAME_REQUIRED'), t)).toBe(
      'A first name is required for every imported user.',
    );
  });

  it('shows the unknown-error message for codes it does not know', () => {
    expect(errorMessage(new ApiError(500, 'SOMETHING_NEW', 'x'), t)).toBe(
      'An unexpected error has occurred. Please try again later.',
    );
    expect(errorMessage(new Error('boom'), t)).toBe('An unexpected error has occurred. Please try again later.');
  });
});

describe('required parameters', () => {
  it('fills path parameters', () => {
    expect(pathOf(clientRoutes.get, { id: 'a b' })).toBe('/clients/a%20b');
  });

  it('names the missing parameter and the operation', () => {
    expect(() => pathOf(clientRoutes.get, { id: undefined })).toThrow(
      'Required parameter "id" was null or undefined when calling /clients/:id.',
    );
    try {
      pathOf(caseRoutes.listPreviews, { id: undefined });
    } catch (error) {
      expect((error as ApiError).errorCode).toBe('REQUIRED_PARAMETER_MISSING');
    }
  });
});
