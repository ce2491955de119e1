import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { lazyDialog } from './lazy-dialog';

function Dialog(props: { opened: boolean; title: string }) {
  return <div role="dialog" aria-label={props.title} data-opened={String(props.opened)} />;
}

function AlwaysOpen(props: { title: string }) {
  return <div role="dialog" aria-label={props.title} />;
}

describe('a dialog fetched when first opened', () => {
  it('fetches nothing and shows nothing while it has never been opened', () => {
    const load = vi.fn(async () => Dialog);
    const Lazy = lazyDialog(load);
    render(<Lazy opened={false} title="Delete" />);
    expect(load).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('fetches its code when opened and shows it with the props given', async () => {
    const load = vi.fn(async () => Dialog);
    const Lazy = lazyDialog(load);
    const view = render(<Lazy opened={false} title="Delete" />);
    view.rerender(<Lazy opened title="Delete" />);
    expect(await screen.findByRole('dialog', { name: 'Delete' })).toHaveAttribute('data-opened', 'true');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('stays mounted once closed, so it can close with its transition and open again at once', async () => {
    const Lazy = lazyDialog(async () => Dialog);
    const view = render(<Lazy opened title="Delete" />);
    await screen.findByRole('dialog');
    view.rerender(<Lazy opened={false} title="Delete" />);
    expect(screen.getByRole('dialog')).toHaveAttribute('data-opened', 'false');
  });

  it('shows a dialog without an `opened` prop while it is mounted', async () => {
    const Lazy = lazyDialog(async () => AlwaysOpen);
    render(<Lazy title="Send now" />);
    expect(await screen.findByRole('dialog', { name: 'Send now' })).toBeInTheDocument();
  });
});
