import { lazy, Suspense } from 'react';
import { Input, Skeleton } from '@mantine/core';
import type { RichTextFieldProps } from './rich-text-field';

/** The editor (Tiptap, ProseMirror and Mantine's binding) is fetched when a field first renders. */
const Editor = lazy(async () => ({ default: (await import('./rich-text-field')).RichTextField }));

/** The toolbar's height above the editable area, so the placeholder does not shift the page. */
const TOOLBAR_HEIGHT = 46;

/**
 * The rich text field as screens use it: the screen paints at once, with a placeholder of the
 * editor's size, and the editor replaces it when its code has arrived.
 */
export function RichTextField(props: RichTextFieldProps) {
  const placeholder = (
    <Input.Wrapper label={props.label} labelElement="div" description={props.description} required={props.required}>
      <Skeleton height={(props.minHeight ?? 120) + (props.readOnly ? 0 : TOOLBAR_HEIGHT)} />
    </Input.Wrapper>
  );
  return (
    <Suspense fallback={placeholder}>
      <Editor {...props} />
    </Suspense>
  );
}
