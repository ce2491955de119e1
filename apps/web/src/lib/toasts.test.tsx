import { describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { Providers } from '../app/providers';
import { toastSuccess } from './toasts';

describe('toasts', () => {
  it('fetch and mount their container with the first toast, which it then shows', async () => {
    render(
      <MantineProvider env="test">
        <Providers>
          <p>screen</p>
        </Providers>
      </MantineProvider>,
    );
    expect(document.querySelector('.mantine-Notifications-root')).toBeNull();
    act(() => toastSuccess('Client saved.'));
    expect(await screen.findByText('Client saved.')).toBeInTheDocument();
  });
});
