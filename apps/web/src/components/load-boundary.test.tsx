import { describe, expect, it, vi } from 'vitest';
import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LoadBoundary } from './load-boundary';

/** A part of a screen loaded on demand, whose first fetch fails as it does offline. */
function OnDemand(props: { load: () => Promise<{ default: () => ReactNode }> }) {
  const [tries, setTries] = useState(0);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `tries` is what makes a new one
  const Part = useMemo(() => lazy(props.load), [tries]);
  return (
    <div>
      <p>The rest of the case</p>
      <LoadBoundary key={tries} fallback={<button onClick={() => setTries((n) => n + 1)}>Try again</button>}>
        <Suspense fallback={<p>Loading</p>}>
          <Part />
        </Suspense>
      </LoadBoundary>
    </div>
  );
}

describe('LoadBoundary', () => {
  it('keeps the screen when a chunk cannot be fetched, and loads it when tried again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const load = vi
      .fn()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValue({ default: () => <p>The material</p> });
    render(<OnDemand load={load} />);
    await screen.findByRole('button', { name: 'Try again' });
    expect(screen.getByText('The rest of the case')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByText('The material');
    expect(load).toHaveBeenCalledTimes(2);
  });
});
