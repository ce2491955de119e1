import { describe, expect, it } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { t } from './i18n';
import { useDeferredContractResolver } from './deferred-contract-resolver';

const texts = {
  subject: '',
  body: 'Hello {first_name}',
  button_text: 'Open',
  dashboard_url_text: '',
  send_mode: 'MANUAL',
};

describe("an editor's form checks with a schema fetched after its first paint", () => {
  it('checks with the contract schema once ready, as contractResolver does', async () => {
    const { result } = renderHook(() => useDeferredContractResolver((schemas) => schemas.saveEmailBody, t));
    await act(() => result.current.ready());
    expect(result.current.validate(texts)).toEqual({ subject: t('errors.FIELD_REQUIRED') });
    expect(result.current.validate({ ...texts, subject: 'Round 2', body: 'Hi {nickname}' })).toEqual({
      body: expect.stringContaining('{nickname} is not a placeholder'),
    });
    expect(result.current.validate({ ...texts, subject: 'Round 2' })).toEqual({});
  });

  it('finds nothing wrong before the schema is here (the server checks a save made then)', () => {
    const { result } = renderHook(() => useDeferredContractResolver((schemas) => schemas.updateCaseBody, t));
    expect(result.current.validate({ name: '' })).toEqual({});
  });
});
