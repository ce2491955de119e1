import { describe, expect, it, vi } from 'vitest';
import { render } from '@testing-library/react';
import { createRef } from 'react';
import { useMergeRefs } from './merge-refs';

function Box(props: { refs: Parameters<typeof useMergeRefs<HTMLDivElement>>[0] }) {
  return <div ref={useMergeRefs(props.refs)} data-testid="box" />;
}

describe('useMergeRefs (for the ScrollArea, in place of Floating UI’s)', () => {
  it('sets every ref to the node, and clears them, or runs their cleanup, when it goes', () => {
    const object = createRef<HTMLDivElement>();
    const callback = vi.fn();
    const cleanup = vi.fn();
    const withCleanup = vi.fn(() => cleanup);
    const view = render(<Box refs={[object, callback, undefined, withCleanup]} />);
    const node = view.getByTestId('box');
    expect(object.current).toBe(node);
    expect(callback).toHaveBeenCalledWith(node);
    expect(withCleanup).toHaveBeenCalledWith(node);
    view.unmount();
    expect(object.current).toBeNull();
    expect(callback).toHaveBeenLastCalledWith(null);
    expect(cleanup).toHaveBeenCalledTimes(1);
  });
});
