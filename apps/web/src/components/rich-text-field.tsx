import '@mantine/tiptap/styles.css';
import { useEffect, useMemo, type CSSProperties, type JSX, type RefObject } from 'react';
import { Input } from '@mantine/core';
import { useId } from '@mantine/hooks';
import { DEFAULT_LABELS, Link, RichTextEditor } from '@mantine/tiptap';
import { useEditor, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import classes from './rich-text-field.module.css';

export interface RichTextFieldProps {
  /** Visible label; also the accessible name of the editable area. */
  label: string;
  /** The content as HTML; '' when empty. */
  value: string;
  /** Called with the editor's HTML when the user edits ('' for an empty editor), never for `value` changes. */
  onChange: (html: string) => void;
  error?: string | null;
  description?: string;
  required?: boolean;
  /** No toolbar and not editable, but still readable, selectable and reachable by Tab. */
  readOnly?: boolean;
  /** Minimum height of the editable area in pixels. */
  minHeight?: number;
  /** The id of the editable area. */
  id?: string;
  /** Receives the editor, for a screen that inserts text at the cursor (an email's placeholders). */
  editorRef?: RefObject<Editor | null>;
}

/**
 * StarterKit v3 bundles Link and Underline. Its Link is swapped for Mantine's (which opens the
 * link editor on Mod+K and does not follow links on click); Underline stays StarterKit's.
 */
const extensions = [StarterKit.configure({ link: false }), Link];

/** The link editor's "open in a new tab" toggle is an icon-only button Mantine leaves unnamed. */
const editorAttributes = {
  linkEditorExternalControl: { 'aria-label': DEFAULT_LABELS.linkEditorExternalLink },
};

const EMPTY_DOCUMENT = '<p></p>';

/** The editor's content as the form sees it: an editor holding only an empty paragraph is ''. */
function htmlOf(editor: Editor): string {
  const html = editor.getHTML();
  return html === EMPTY_DOCUMENT ? '' : html;
}

/** A labelled rich-text input (bold, italic, underline, lists, links, undo/redo) that stores HTML. */
export function RichTextField({
  label,
  value,
  onChange,
  error,
  description,
  required = false,
  readOnly = false,
  minHeight = 120,
  id,
  editorRef,
}: RichTextFieldProps): JSX.Element {
  const inputId = useId(id);
  const labelId = `${inputId}-label`;
  const errorId = `${inputId}-error`;
  const descriptionId = `${inputId}-description`;
  const hasError = !!error;
  const describedBy = [hasError && errorId, description && descriptionId].filter(Boolean).join(' ') || undefined;

  // The attributes of the contenteditable element; a new object makes useEditor apply them.
  const editorProps = useMemo(() => {
    const attributes: Record<string, string> = {
      id: inputId,
      role: 'textbox',
      'aria-multiline': 'true',
      'aria-labelledby': labelId,
    };
    if (describedBy) attributes['aria-describedby'] = describedBy;
    if (hasError) attributes['aria-invalid'] = 'true';
    if (required) attributes['aria-required'] = 'true';
    if (readOnly) {
      // A non-editable contenteditable leaves the tab order; a read-only field should not.
      attributes['aria-readonly'] = 'true';
      attributes.tabindex = '0';
    }
    return { attributes };
  }, [inputId, labelId, describedBy, hasError, required, readOnly]);

  const editor = useEditor({
    extensions,
    content: value,
    editable: !readOnly,
    editorProps,
    // Callbacks are read from the latest render, so a new onChange needs no re-subscription.
    onUpdate: ({ editor: current }) => onChange(htmlOf(current)),
  });

  useEffect(() => {
    if (!editorRef) return;
    editorRef.current = editor;
    return () => {
      editorRef.current = null;
    };
  }, [editor, editorRef]);

  // useEditor keeps the editor's own editable state across renders, so readOnly is applied here.
  useEffect(() => {
    if (editor && !editor.isDestroyed && editor.isEditable === readOnly) editor.setEditable(!readOnly, false);
  }, [editor, readOnly]);

  // A value set from outside (form reset, import) replaces the content without reporting a change.
  useEffect(() => {
    if (!editor || editor.isDestroyed || htmlOf(editor) === value) return;
    editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);

  return (
    <Input.Wrapper
      label={label}
      labelElement="div"
      labelProps={{ id: labelId, onClick: () => !readOnly && editor?.commands.focus() }}
      description={description}
      descriptionProps={{ id: descriptionId }}
      error={error || undefined}
      errorProps={{ id: errorId }}
      required={required}
    >
      <RichTextEditor
        editor={editor}
        className={classes.root}
        attributes={editorAttributes}
        mod={{ error: hasError, 'with-description': !!description }}
      >
        {!readOnly && (
          <RichTextEditor.Toolbar>
            <RichTextEditor.ControlsGroup>
              <RichTextEditor.Bold />
              <RichTextEditor.Italic />
              <RichTextEditor.Underline />
            </RichTextEditor.ControlsGroup>
            <RichTextEditor.ControlsGroup>
              <RichTextEditor.BulletList />
              <RichTextEditor.OrderedList />
            </RichTextEditor.ControlsGroup>
            <RichTextEditor.ControlsGroup>
              <RichTextEditor.Link />
              <RichTextEditor.Unlink />
            </RichTextEditor.ControlsGroup>
            <RichTextEditor.ControlsGroup>
              <RichTextEditor.Undo />
              <RichTextEditor.Redo />
            </RichTextEditor.ControlsGroup>
          </RichTextEditor.Toolbar>
        )}
        <RichTextEditor.Content
          className={classes.content}
          style={{ '--rich-text-field-min-height': `${minHeight}px` } as CSSProperties}
        />
      </RichTextEditor>
    </Input.Wrapper>
  );
}
