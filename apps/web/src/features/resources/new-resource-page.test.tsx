import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { resourceRoutes } from '@pss/contract';
import { MemoryScreenRouter } from '../../lib/screen-router';
import { call } from '../../lib/api-client';
import { NewResourcePage } from './new-resource-page';

vi.mock('../../lib/api-client', () => ({
  call: vi.fn(async (route: unknown) =>
    route === resourceRoutes.create ? { id: 'r1', name: 'Guideline' } : { items: [] },
  ),
  callRaw: vi.fn(),
  uploadWithProgress: vi.fn(),
}));
afterEach(() => vi.mocked(call).mockClear());
// The autosizing text area listens for web fonts, which happy-dom does not have.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: { addEventListener() {}, removeEventListener() {} } });
}

function renderPage() {
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={new QueryClient()}>
        <MemoryScreenRouter initialEntries={['/resource-library/new']}>
          <NewResourcePage />
        </MemoryScreenRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return userEvent.setup();
}

const field = (label: string) => screen.getByLabelText(new RegExp(`^${label}`));
const created = () => vi.mocked(call).mock.calls.filter(([route]) => route === resourceRoutes.create);

describe('a new resource', () => {
  it('asks for a file first, beside the drop zone', async () => {
    const user = renderPage();
    await user.click(screen.getByRole('button', { name: 'Add to the library' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Choose a file first.');
  });

  it('checks a link as the server does, with the messages beside the fields, before sending it', async () => {
    const user = renderPage();
    await user.click(screen.getByRole('radio', { name: 'A link' }));
    await user.click(screen.getByRole('button', { name: 'Add to the library' }));
    await waitFor(() => expect(field('Name')).toHaveAccessibleDescription('This field is required.'));
    // An empty link is not a link, as the server says too.
    expect(field('Link')).toHaveAccessibleDescription('Please enter a valid URL.');
    await user.type(field('Name'), 'Guideline');
    await user.type(field('Link'), 'not a link');
    await user.click(screen.getByRole('button', { name: 'Add to the library' }));
    await waitFor(() => expect(field('Link')).toHaveAccessibleDescription('Please enter a valid URL.'));
    expect(created()).toEqual([]);

    await user.clear(field('Link'));
    await user.type(field('Link'), 'https://example.org/guideline');
    await user.click(screen.getByRole('button', { name: 'Add to the library' }));
    await waitFor(() =>
      expect(created()).toEqual([
        [
          resourceRoutes.create,
          {
            body: {
              name: 'Guideline',
              source_type: 'URL',
              link: 'https://example.org/guideline',
              details: '',
              category_ids: [],
            },
          },
        ],
      ]),
    );
  });
});
