import { describe, expect, it, vi } from 'vitest';
import type { ReactNode } from 'react';
import { fireEvent, render, screen } from '@testing-library/react';
import { Anchor, Button, Checkbox, Group, MantineProvider } from '@mantine/core';
import { theme } from '../app/providers';
import { createMemoryScreenRouter, Link, ScreenRouterProvider } from '../lib/screen-router';
import { PlainActionGroup, PlainAnchorLink, PlainCheckbox, PlainSubtleButton } from './plain-controls';
import { toastInfo } from '../lib/toasts';

vi.mock('../lib/toasts', () => ({ toastInfo: vi.fn() }));

/** The element's markup (inside a router, as on a screen), its generated ids named alike. */
function markupOf(node: ReactNode): string {
  const router = createMemoryScreenRouter([{ path: '*', element: node }], { initialEntries: ['/'] });
  const { container, unmount } = render(
    <MantineProvider theme={theme}>
      <ScreenRouterProvider router={router} />
    </MantineProvider>,
  );
  const html = [...container.children]
    .filter((element) => element.tagName !== 'STYLE')
    .map(canonical)
    .join('');
  unmount();
  return html;
}

/** An element as tag, attributes in name order (a generated id named alike) and children. */
function canonical(node: Node): string {
  if (!(node instanceof Element)) return node.textContent ?? '';
  const attributes = [...node.attributes]
    .map(({ name, value }) => `${name}="${name === 'id' ? '…' : value}"`)
    .sort()
    .join(' ');
  return `<${node.tagName.toLowerCase()} ${attributes}>${[...node.childNodes].map(canonical).join('')}</${node.tagName.toLowerCase()}>`;
}

const noop = () => undefined;

describe('plain controls render what Mantine renders for the same props', () => {
  it('a row checkbox, checked and not', () => {
    for (const checked of [false, true]) {
      expect(markupOf(<PlainCheckbox label="Select row" checked={checked} onChange={noop} />)).toBe(
        markupOf(<Checkbox aria-label="Select row" checked={checked} onChange={noop} />),
      );
    }
  });

  it('a subtle compact button, in blue and in red', () => {
    expect(
      markupOf(
        <PlainSubtleButton label="Edit Northwind" onClick={noop}>
          Edit
        </PlainSubtleButton>,
      ),
    ).toBe(
      markupOf(
        <Button size="compact-sm" variant="subtle" onClick={noop} aria-label="Edit Northwind">
          Edit
        </Button>,
      ),
    );
    expect(
      markupOf(
        <PlainSubtleButton color="red" label="Delete Northwind" onClick={noop}>
          Delete
        </PlainSubtleButton>,
      ),
    ).toBe(
      markupOf(
        <Button size="compact-sm" variant="subtle" color="red" onClick={noop} aria-label="Delete Northwind">
          Delete
        </Button>,
      ),
    );
  });

  it('a group of row actions', () => {
    expect(markupOf(<PlainActionGroup>x</PlainActionGroup>)).toBe(
      markupOf(
        <Group gap={4} wrap="nowrap">
          x
        </Group>,
      ),
    );
  });

  it('a link within the app', () => {
    expect(markupOf(<PlainAnchorLink to="/project-management/clients/1">Northwind</PlainAnchorLink>)).toBe(
      markupOf(
        <Anchor component={Link} to="/project-management/clients/1">
          Northwind
        </Anchor>,
      ),
    );
  });
});

describe('a blocked row action', () => {
  it('says why it cannot be done, as its description and tooltip, and does not act when pressed', () => {
    const act = vi.fn();
    render(
      <MantineProvider theme={theme}>
        <PlainSubtleButton color="red" label="Delete Northwind" onClick={act} blockedReason="It has projects.">
          Delete
        </PlainSubtleButton>
      </MantineProvider>,
    );
    const button = screen.getByRole('button', { name: 'Delete Northwind' });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveAccessibleDescription('It has projects.');
    expect(button).toHaveAttribute('title', 'It has projects.');
    expect(button).toBeEnabled();
    fireEvent.click(button);
    expect(act).not.toHaveBeenCalled();
    expect(toastInfo).toHaveBeenCalledWith('It has projects.');
  });

  it('acts when nothing blocks it', () => {
    const act = vi.fn();
    render(
      <MantineProvider theme={theme}>
        <PlainSubtleButton color="red" label="Delete Acme" onClick={act}>
          Delete
        </PlainSubtleButton>
      </MantineProvider>,
    );
    const button = screen.getByRole('button', { name: 'Delete Acme' });
    expect(button).not.toHaveAttribute('aria-disabled');
    fireEvent.click(button);
    expect(act).toHaveBeenCalledOnce();
  });
});
