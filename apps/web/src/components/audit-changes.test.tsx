import { describe, expect, it } from 'vitest';
import type { ReactNode } from 'react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { AuditChanges } from './audit-changes';

const wrapper = ({ children }: { children: ReactNode }) => <MantineProvider env="test">{children}</MantineProvider>;

const cellsOf = (field: string) =>
  within(screen.getByRole('rowheader', { name: field }).closest('tr')!)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

describe('AuditChanges', () => {
  it('shows each field by its screen name, before | after, nothing and empty told apart', () => {
    render(
      <AuditChanges
        targetType="user"
        changes={{
          first_name: { before: 'Noah', after: 'Noah James' },
          mobile_number: { before: null, after: '+1 555 0100' },
          npi: { before: '1234567890', after: '' },
          shoe_size: { before: 41, after: 42 },
        }}
      />,
      { wrapper },
    );
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Field', 'Before', 'After']);
    expect(cellsOf('First name')).toEqual(['Noah', 'Noah James']);
    expect(cellsOf('Mobile number')).toEqual(['(none)', '+1 555 0100']);
    expect(cellsOf('NPI')).toEqual(['1234567890', '(empty)']);
    // A field the screens do not name is shown as the event names it.
    expect(cellsOf('shoe_size')).toEqual(['41', '42']);
    expect(screen.queryByRole('button', { name: 'Show all' })).toBeNull();
  });

  it('marks the words a long text lost and gained, and shows it whole when asked', async () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
    const before = `${words(30)} at rest ${words(30)}`;
    const after = `${words(30)} on exertion ${words(30)}`;
    render(<AuditChanges targetType="case" changes={{ explanation: { before, after } }} />, { wrapper });
    const row = screen.getByRole('rowheader', { name: 'Explanation' }).closest('tr')!;
    expect(row.querySelector('del')?.textContent).toBe('at rest ');
    expect(row.querySelector('ins')?.textContent).toBe('on exertion ');
    const [beforeCell] = within(row).getAllByRole('cell');
    expect(beforeCell!.textContent!.startsWith('…')).toBe(true);
    expect(beforeCell!.textContent!.length).toBeLessThan(before.length);

    await userEvent.click(screen.getByRole('button', { name: 'Show all' }));
    expect(within(row).getAllByRole('cell')[0]!.textContent).toBe(before);
    expect(screen.getByRole('button', { name: 'Show less' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('shows the first rows of a large change, and the rest when asked', async () => {
    const changes = Object.fromEntries(
      Array.from({ length: 9 }, (_, i) => [`field_${i}`, { before: `old ${i}`, after: `new ${i}` }]),
    );
    render(<AuditChanges changes={changes} />, { wrapper });
    expect(screen.getAllByRole('rowheader')).toHaveLength(6);
    expect(screen.getByText('3 more changes not shown')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Show all' }));
    expect(screen.getAllByRole('rowheader')).toHaveLength(9);
  });

  it('says so when an event changed no field', () => {
    render(<AuditChanges changes={{}} />, { wrapper });
    expect(screen.getByText('No field changes')).toBeInTheDocument();
  });
});
