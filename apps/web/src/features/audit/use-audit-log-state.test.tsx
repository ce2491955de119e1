import { describe, expect, it, vi } from 'vitest';
import { act } from '@testing-library/react';
import { useLocation } from '../../lib/screen-router';
import { renderHookInRouter } from '../../test/render-hook-in-router';
import { useAuditLogState, useTypedFilter } from './use-audit-log-state';

const id = '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';

function setup(url: string) {
  return renderHookInRouter(() => ({ state: useAuditLogState(), location: useLocation() }), url);
}

describe('the Audit Log’s state in the address', () => {
  it('reads the filters and the page, leaving out what the API would refuse', () => {
    const { result } = setup(`/audit-log?action=cases.update&actor_id=${id}&project_id=nope&cursor=812`);
    expect(result.current.state.filters).toEqual({ action: 'cases.update', actor_id: id });
    expect(result.current.state.cursor).toBe('812');
    // Opened on an older page from a link: the newest is a step away, the page before is not known.
    expect(result.current.state.depth).toBe(1);
    expect(result.current.state.canGoNewer).toBe(false);
  });

  it('steps to older pages and back one at a time, and to the newest at once', () => {
    const { result } = setup('/audit-log?action=cases.update');
    act(() => result.current.state.older('900'));
    expect(result.current.location.search).toBe('?action=cases.update&cursor=900');
    act(() => result.current.state.older('850'));
    expect(result.current.state.depth).toBe(2);
    act(() => result.current.state.newer());
    expect(result.current.location.search).toBe('?action=cases.update&cursor=900');
    expect(result.current.state.canGoNewer).toBe(true);
    act(() => result.current.state.newer());
    expect(result.current.location.search).toBe('?action=cases.update');
    expect(result.current.state.depth).toBe(0);
    act(() => result.current.state.older('900'));
    act(() => result.current.state.older('850'));
    act(() => result.current.state.newest());
    expect(result.current.location.search).toBe('?action=cases.update');
    expect(result.current.state.canGoNewer).toBe(false);
  });

  it('starts again from the newest page when a filter changes, and clears them all', () => {
    const { result } = setup('/audit-log?action=cases.update&cursor=900');
    act(() => result.current.state.setFilter('target_type', ' case '));
    expect(result.current.location.search).toBe('?action=cases.update&target_type=case');
    act(() => result.current.state.setFilter('action', null));
    expect(result.current.location.search).toBe('?target_type=case');
    act(() => result.current.state.clearFilters());
    expect(result.current.location.search).toBe('');
  });
});

describe('a typed filter', () => {
  it('is applied once typing pauses, and shows a filter changed from elsewhere', () => {
    vi.useFakeTimers();
    try {
      const { result } = renderHookInRouter(() => {
        const state = useAuditLogState();
        return { state, typed: useTypedFilter(state, 'action'), location: useLocation() };
      }, '/audit-log');
      act(() => result.current.typed.onChange('cases.upd'));
      act(() => result.current.typed.onChange('cases.update'));
      expect(result.current.location.search).toBe('');
      act(() => {
        vi.advanceTimersByTime(400);
      });
      expect(result.current.location.search).toBe('?action=cases.update');
      act(() => result.current.state.clearFilters());
      expect(result.current.typed.value).toBe('');
    } finally {
      vi.useRealTimers();
    }
  });
});
