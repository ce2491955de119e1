import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { DeliveryStatus } from './delivery-status';

function renderStatus(status: Parameters<typeof DeliveryStatus>[0]['status']) {
  render(
    <MantineProvider env="test">
      <DeliveryStatus status={status} />
    </MantineProvider>,
  );
}

describe('an email’s delivery status in the log', () => {
  it('says "Not sent" in the badge and why beneath it, in full, when there is no mail server', () => {
    renderStatus('UNSENT');
    expect(screen.getByTestId('delivery-status')).toHaveTextContent(/^Not sent$/);
    expect(screen.getByText('No mail server')).toBeVisible();
  });

  it('names a suppressed address as the reason', () => {
    renderStatus('SUPPRESSED');
    expect(screen.getByTestId('delivery-status')).toHaveTextContent(/^Not sent$/);
    expect(screen.getByText('Address suppressed')).toBeVisible();
  });

  it('gives a sent email its badge alone', () => {
    renderStatus('SENT');
    expect(screen.getByTestId('delivery-status')).toHaveTextContent(/^Sent$/);
    expect(screen.queryByText(/mail server|suppressed/)).toBeNull();
  });
});
