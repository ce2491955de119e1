import type { Ref, RefCallback } from 'react';
import { useMergedRef } from '@mantine/hooks';

/**
 * `useMergeRefs` of `@floating-ui/react`, the one thing Mantine's ScrollArea takes from it,
 * made with Mantine's own `useMergedRef` (build/scroll-area-refs.ts says why). Floating UI
 * takes the refs as one array, Mantine as arguments; both return one callback ref that sets
 * each, and runs each callback's cleanup when the node goes.
 */
export function useMergeRefs<T>(refs: readonly (Ref<T> | undefined)[]): RefCallback<T> {
  return useMergedRef<T>(...refs);
}
