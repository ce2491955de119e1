import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { Providers } from '../app/providers';
import { notifications } from './notifications';
import { TOAST_AUTO_CLOSE_MS, toastError, toastSuccess } from './toasts';

function renderApp() {
  render(
    <MantineProvider env="test">
      <Providers>
        <p>screen</p>
      </Providers>
    </MantineProvider>,
  );
}

/** The reader's system asks for reduced motion, as the browser flows' does (playwright.config.ts). */
function preferReducedMotion() {
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => ({
    matches: query.includes('prefers-reduced-motion: reduce'),
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  }));
}

describe('toasts', () => {
  afterEach(() => {
    act(() => notifications.clean());
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  // First: the container is mounted once a toast was raised, for every later test too.
  it('fetch and mount their container with the first toast, which it then shows', async () => {
    renderApp();
    expect(document.querySelector('.mantine-Notifications-root')).toBeNull();
    act(() => toastSuccess('Client saved.'));
    expect(await screen.findByText('Client saved.')).toBeInTheDocument();
  });

  it('close by themselves after 3 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderApp();
    act(() => toastSuccess('Client saved.'));
    expect(await screen.findByText('Client saved.')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(TOAST_AUTO_CLOSE_MS - 500));
    expect(screen.getByText('Client saved.')).toBeInTheDocument();
    // The rest of the 3 seconds, and the fade.
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.queryByText('Client saved.')).toBeNull();
  });

  it('under reduced motion stay until closed, the newest in the place of those before', async () => {
    preferReducedMotion();
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderApp();
    act(() => toastSuccess('Client saved.'));
    expect(await screen.findByText('Client saved.')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(TOAST_AUTO_CLOSE_MS * 10));
    expect(screen.getByText('Client saved.')).toBeInTheDocument();

    act(() => toastError('The client could not be saved.'));
    expect(await screen.findByText('The client could not be saved.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Client saved.')).toBeNull());
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });
});
