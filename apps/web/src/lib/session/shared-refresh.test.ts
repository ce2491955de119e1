import { afterEach, describe, expect, it, vi } from 'vitest';
import { sharedRefresh } from './shared-refresh';

afterEach(() => vi.unstubAllGlobals());

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('sharedRefresh', () => {
  it('sends one refresh for callers that come while it runs, and a new one afterwards', async () => {
    const answer = deferred<string>();
    const refresh = vi.fn(() => answer.promise);
    const first = sharedRefresh('staff', refresh);
    const second = sharedRefresh('staff', refresh);
    expect(refresh).toHaveBeenCalledTimes(1);
    answer.resolve('token-1');
    expect(await Promise.all([first, second])).toEqual(['token-1', 'token-1']);

    await sharedRefresh('staff', async () => 'token-2');
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('shares a failure and then lets the next call try again', async () => {
    const answer = deferred<string>();
    const first = sharedRefresh('participant', () => answer.promise);
    const second = sharedRefresh('participant', () => Promise.resolve('unused'));
    answer.reject(new Error('401'));
    await expect(first).rejects.toThrow('401');
    await expect(second).rejects.toThrow('401');
    expect(await sharedRefresh('participant', async () => 'again')).toBe('again');
  });

  it('keeps staff and participant refreshes apart', async () => {
    const staff = sharedRefresh('staff', async () => 'staff');
    const participant = sharedRefresh('participant', async () => 'participant');
    expect([await staff, await participant]).toEqual(['staff', 'participant']);
  });

  it('queues the refresh behind the other tabs’ under a Web Lock when the browser has them', async () => {
    const request = vi.fn((_name: string, callback: () => Promise<unknown>) => callback());
    vi.stubGlobal('navigator', { ...navigator, locks: { request } });
    expect(await sharedRefresh('staff', async () => 'locked')).toBe('locked');
    expect(request).toHaveBeenCalledWith('pss-refresh:staff', expect.any(Function));
  });

  it('sends at once, without the lock, when told not to wait for other tabs (a page starting)', async () => {
    const request = vi.fn((_name: string, callback: () => Promise<unknown>) => callback());
    vi.stubGlobal('navigator', { ...navigator, locks: { request } });
    expect(await sharedRefresh('staff', async () => 'at once', { waitForOtherTabs: false })).toBe('at once');
    expect(request).not.toHaveBeenCalled();
  });
});
