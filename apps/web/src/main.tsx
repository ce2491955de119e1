// The rules every Mantine component relies on; each component's own rules come with the
// chunk that uses it (build/mantine-styles.ts).
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import '@mantine/core/styles/global.layer.css';
import './app/read-only-fields.css';
import './app/narrow-screen.css';
import './lib/i18n';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { ScreenRouterProvider } from './lib/screen-router';
import { Providers } from './app/providers';
import { createAppRouter } from './app/router';
import { startSessionEarly } from './lib/session/early-start';

/**
 * The app starts in a microtask, just after this module has run, not while it runs. Lighthouse
 * records a JavaScript stack for every request, timer and style change, and a stack that
 * includes the module's own top level makes V8 re-read the whole entry file to find its
 * source positions: start-up time spent on the measurement, not the app
 * (docs/benchmarks.md, "Fifth pass"). A microtask runs before anything else can, so the
 * calls and the first render leave as early as before.
 */
queueMicrotask(() => {
  // The session and settings the first screen waits on go out now, while React starts.
  startSessionEarly(window.location.pathname);

  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing from index.html');

  const reactRoot = createRoot(root);
  // The first render is a transition so React builds it in slices of a few milliseconds and
  // the browser stays responsive between them. Rendered at once, the first screen was one
  // long task on a phone-class CPU, and Lighthouse counted it as blocking time
  // (docs/benchmarks.md, "Fifth pass"). Nothing is
  // on screen before it either way, so there is no earlier paint to lose.
  startTransition(() => {
    reactRoot.render(
      <StrictMode>
        <Providers>
          <ScreenRouterProvider router={createAppRouter()} />
        </Providers>
      </StrictMode>,
    );
  });
});
