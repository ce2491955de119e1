import { describe, expect, it } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryScreenRouter, useLocation } from './screen-router';
import { useUrlParam } from './use-url-param';

function setup(url: string) {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <MemoryScreenRouter initialEntries={[url]}>{children}</MemoryScreenRouter>
  );
  return renderHook(() => ({ param: useUrlParam('status'), location: useLocation() }), { wrapper });
}

describe('a list filter in the URL', () => {
  it('reads the filter, sets it back to page 1 and removes it', () => {
    const { result } = setup('/x?page=3&search=a&status=ARCHIVED');
    expect(result.current.param[0]).toBe('ARCHIVED');
    act(() => result.current.param[1]('ACTIVE'));
    expect(result.current.location.search).toBe('?search=a&status=ACTIVE');
    act(() => result.current.param[1](null));
    expect(result.current.location.search).toBe('?search=a');
  });
});
