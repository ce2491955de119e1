import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { resourceRoutes } from '@pss/contract';
import { MemoryScreenRouter } from '../../lib/screen-router';
import { call } from '../../lib/api-client';
import { ApiError } from '../../lib/api-error';
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

  it('says beside the field that a name or a text of spaces is blank (spec §5), and sends nothing', async () => {
    const user = renderPage();
    await user.click(screen.getByRole('radio', { name: 'A text' }));
    await user.type(field('Name'), '   ');
    await user.type(field('Text'), ' ');
    await user.click(screen.getByRole('button', { name: 'Add to the library' }));
    const blank = 'This field cannot be empty or contain only spaces.';
    await waitFor(() => expect(field('Name')).toHaveAccessibleDescription(blank));
    // The text is checked once the name is good (the body's rule runs on a body of good fields).
    await user.type(field('Name'), 'Reading list');
    await user.click(screen.getByRole('button', { name: 'Add to the library' }));
    await waitFor(() => expect(field('Text')).toHaveAccessibleDescription(blank));
    expect(created()).toEqual([]);
  });

  it('says beside the link that the library holds it already', async () => {
    const taken = new ApiError(
      409,
      'URL_ALREADY_EXISTS',
      'This URL already exists in the resource library: https://example.org/guide',
    );
    const usual = vi.mocked(call).getMockImplementation()!;
    vi.mocked(call).mockImplementation(async (route, ...rest) => {
      if (route === resourceRoutes.create) throw taken;
      return usual(route, ...rest);
    });
    onTestFinished(() => {
      vi.mocked(call).mockImplementation(usual);
    });
    const user = renderPage();
    await user.click(screen.getByRole('radio', { name: 'A link' }));
    await user.type(field('Name'), 'Guide again');
    await user.type(field('Link'), 'https://Example.org/guide/');
    await user.click(screen.getByRole('button', { name: 'Add to the library' }));
    await waitFor(() =>
      expect(field('Link')).toHaveAccessibleDescription(
        'This URL already exists in the resource library: https://example.org/guide',
      ),
    );
  });
});
