import { describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { createRef, type ReactNode } from 'react';
import type { Editor } from '@tiptap/react';
import { RichTextField, type RichTextFieldProps } from './rich-text-field';

// env="test" turns off Mantine's transitions, so the link popover is shown at once.
const wrapper = ({ children }: { children: ReactNode }) => <MantineProvider env="test">{children}</MantineProvider>;

function setup(props: Partial<RichTextFieldProps> = {}) {
  const onChange = vi.fn();
  const all: RichTextFieldProps = { label: 'Label', value: '<p>Hello</p>', onChange, ...props };
  const view = render(<RichTextField {...all} />, { wrapper });
  const rerender = (next: Partial<RichTextFieldProps>) => view.rerender(<RichTextField {...all} {...next} />);
  return { onChange, rerender };
}

describe('a rich-text field', () => {
  it('is a multiline textbox named by its label, with a toolbar', () => {
    setup({ required: true, id: 'notes' });
    const textbox = screen.getByRole('textbox', { name: 'Label' });
    expect(textbox).toHaveAttribute('id', 'notes');
    expect(textbox).toHaveAttribute('aria-multiline', 'true');
    expect(textbox).toHaveAttribute('aria-required', 'true');
    expect(textbox).toHaveAttribute('contenteditable', 'true');
    expect(textbox).not.toHaveAttribute('aria-invalid');
    expect(textbox).toHaveTextContent('Hello');
    for (const name of ['Bold', 'Italic', 'Underline', 'Bullet list', 'Ordered list', 'Link', 'Remove link']) {
      expect(screen.getByRole('button', { name })).toBeInTheDocument();
    }
  });

  it('names every control of the link editor', async () => {
    setup();
    await userEvent.click(screen.getByRole('button', { name: 'Link' }));
    expect(await screen.findByRole('textbox', { name: 'Enter URL' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open link in a new tab' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeInTheDocument();
  });

  it('shows the error, describes the textbox with it and marks it invalid', async () => {
    const { rerender } = setup({ error: 'Too long', description: 'Shown on the report' });
    const textbox = screen.getByRole('textbox', { name: 'Label' });
    expect(screen.getByText('Too long')).toBeInTheDocument();
    expect(textbox).toHaveAttribute('aria-invalid', 'true');
    expect(textbox).toHaveAccessibleDescription('Too long Shown on the report');

    rerender({ error: null, description: 'Shown on the report' });
    await waitFor(() => expect(textbox).not.toHaveAttribute('aria-invalid'));
    expect(screen.queryByText('Too long')).not.toBeInTheDocument();
  });

  it('is read-only without a toolbar', () => {
    const { rerender } = setup({ readOnly: true });
    const textbox = screen.getByRole('textbox', { name: 'Label' });
    expect(textbox).toHaveAttribute('contenteditable', 'false');
    expect(textbox).toHaveAttribute('aria-readonly', 'true');
    expect(textbox).toHaveAttribute('tabindex', '0');
    expect(textbox).toHaveTextContent('Hello');
    expect(screen.queryByRole('button')).not.toBeInTheDocument();

    rerender({ readOnly: false });
    expect(textbox).toHaveAttribute('contenteditable', 'true');
    expect(textbox).not.toHaveAttribute('aria-readonly');
    expect(screen.getByRole('button', { name: 'Bold' })).toBeInTheDocument();
  });

  it('takes a value set from outside without reporting a change', () => {
    const { onChange, rerender } = setup();
    const textbox = screen.getByRole('textbox', { name: 'Label' });
    rerender({ value: '<p>Imported <strong>text</strong></p>' });
    expect(textbox.innerHTML).toContain('Imported <strong>text</strong>');
    rerender({ value: '' });
    expect(textbox.textContent).toBe('');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('reports edits as HTML, and an emptied editor as the empty string', () => {
    const { onChange } = setup();
    const textbox = screen.getByRole('textbox', { name: 'Label' });
    // Typing into contenteditable is beyond the DOM emulation; tiptap keeps its editor on the element.
    const editor = (textbox as HTMLElement & { editor: Editor }).editor;
    act(() => void editor.commands.insertContentAt(editor.state.doc.content.size - 1, ' world'));
    expect(onChange).toHaveBeenLastCalledWith('<p>Hello world</p>');
    act(() => void editor.commands.clearContent(true));
    expect(onChange).toHaveBeenLastCalledWith('');
  });

  it('hands its editor to a screen that inserts at the cursor, and reports that insertion as an edit', () => {
    const editorRef = createRef<Editor | null>();
    const { onChange } = setup({ editorRef });
    expect(editorRef.current).not.toBeNull();
    act(() => void editorRef.current!.chain().focus('end').insertContent('{first_name}').run());
    expect(onChange).toHaveBeenLastCalledWith('<p>Hello{first_name}</p>');
  });
});
