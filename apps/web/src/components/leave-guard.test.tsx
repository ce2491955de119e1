import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { createMemoryScreenRouter, ScreenRouterProvider, type ScreenRouter } from '../lib/screen-router';
import { LeaveGuard } from './leave-guard';

function setup(props: { dirty: boolean; saving?: boolean }) {
  const router: ScreenRouter = createMemoryScreenRouter(
    [
      {
        path: '/editor',
        element: <LeaveGuard {...props} title="Leave?" message="Changes are lost." confirmLabel="Leave" />,
      },
      { path: '/elsewhere', element: <p>Elsewhere</p> },
    ],
    { initialEntries: ['/editor'] },
  );
  render(
    <MantineProvider env="test">
      <ScreenRouterProvider router={router} />
    </MantineProvider>,
  );
  return router;
}

const closeTab = () => {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
};

describe('the leave guard of an editor', () => {
  it('asks before another screen when there are unsaved changes, and goes on when told', async () => {
    const router = setup({ dirty: true });
    await act(() => router.navigate('/elsewhere'));
    expect(await screen.findByRole('dialog', { name: 'Leave?' })).toHaveTextContent('Changes are lost.');
    expect(router.state.location.pathname).toBe('/editor');
    fireEvent.click(screen.getByRole('button', { name: 'Leave' }));
    expect(await screen.findByText('Elsewhere')).toBeInTheDocument();
  });

  it('stays when the question is cancelled', async () => {
    const router = setup({ dirty: true });
    await act(() => router.navigate('/elsewhere'));
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(router.state.location.pathname).toBe('/editor');
  });

  it('lets a navigation through with nothing unsaved, or while saving', async () => {
    const clean = setup({ dirty: false });
    await act(() => clean.navigate('/elsewhere'));
    expect(clean.state.location.pathname).toBe('/elsewhere');
    const saving = setup({ dirty: true, saving: true });
    await act(() => saving.navigate('/elsewhere'));
    expect(saving.state.location.pathname).toBe('/elsewhere');
  });

  it('has the browser ask when the tab is closed with unsaved changes only', () => {
    setup({ dirty: true });
    expect(closeTab()).toBe(true);
  });

  it('leaves closing the tab alone with nothing unsaved', () => {
    setup({ dirty: false });
    expect(closeTab()).toBe(false);
  });
});
