import type { Plugin } from 'vite';
import { FIRST_CALLS, startFirstCalls } from '../src/boot/first-calls';

/** The script index.html runs first: `startFirstCalls` (src/boot/first-calls.ts) with its calls. */
export function firstCallsSource(): string {
  return `(${startFirstCalls.toString()})(window, ${JSON.stringify(FIRST_CALLS)});`;
}

/**
 * Puts the first calls' script at the top of index.html's head, in development and in the
 * build, so the browser sends them as it reads the page, before any of the app's files.
 */
export function firstCallsScript(): Plugin {
  return {
    name: 'pss-first-calls',
    transformIndexHtml() {
      return [{ tag: 'script', children: firstCallsSource(), injectTo: 'head-prepend' }];
    },
  };
}
