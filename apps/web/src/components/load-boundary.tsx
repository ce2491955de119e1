import { Component, type ReactNode } from 'react';

/**
 * Catches a part of a screen that failed while it rendered — above all a code chunk loaded
 * on demand that could not be fetched (the connection dropped) — and shows `fallback`
 * instead of blanking the whole screen. React has no hook for this: it takes a class.
 * Give it a new `key` to try again.
 */
export class LoadBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render(): ReactNode {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
