import { describe, expect, it, vi } from 'vitest';
import type { ReactNode } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { createMemoryScreenRouter, ScreenRouterProvider } from '../lib/screen-router';
import { ApiError } from '../lib/api-error';
import { QueryError } from './query-error';

function renderInRouter(node: ReactNode) {
  const router = createMemoryScreenRouter([{ path: '*', element: node }], { initialEntries: ['/somewhere'] });
  render(
    <MantineProvider env="test">
      <ScreenRouterProvider router={router} />
    </MantineProvider>,
  );
}

describe('a read that failed', () => {
  it('offers to try again when trying again may help (a server error, a lost connection)', async () => {
    const retry = vi.fn();
    renderInRouter(<QueryError error={new ApiError(503, 'DATABASE_UNAVAILABLE')} onRetry={retry} />);
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(retry).toHaveBeenCalledOnce();
    expect(screen.queryByRole('link', { name: 'Go to your start page' })).toBeNull();
  });

  it.each([404, 403])('offers the way home, not "Try again", for a %i', (status) => {
    renderInRouter(<QueryError error={new ApiError(status, 'NOT_FOUND')} onRetry={vi.fn()} />);
    expect(screen.getByRole('alert')).toHaveTextContent('It may have been deleted, or it is not yours to open.');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    // No one signed in here (no session): the app's home page.
    expect(screen.getByRole('link', { name: 'Go to your start page' })).toHaveAttribute('href', '/');
  });
});
