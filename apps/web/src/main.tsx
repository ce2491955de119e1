// The rules every Mantine component relies on; each component's own rules come with the
// chunk that uses it (build/mantine-styles.ts).
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import '@mantine/core/styles/global.layer.css';
import './lib/i18n';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from './lib/router';
import { Providers } from './app/providers';
import { createAppRouter } from './app/router';
import { startSessionEarly } from './lib/session/early-start';

// The session and settings the first screen waits on go out now, while React starts.
startSessionEarly(window.location.pathname);

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

createRoot(root).render(
  <StrictMode>
    <Providers>
      <RouterProvider router={createAppRouter()} />
    </Providers>
  </StrictMode>,
);
