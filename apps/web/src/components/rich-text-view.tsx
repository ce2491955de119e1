import { Typography } from '@mantine/core';

/**
 * Shows rich text the server stored. It is safe to insert: the API sanitises every rich-text
 * field (no scripts, styles, forms, event handlers or javascript: links), and nothing else
 * reaches here. apps/api/test/html-fields.test.ts lists every use with the contract field it
 * shows and proves each one sanitised; a new use fails it until it is listed.
 */
export function RichTextView({ html }: { html: string }) {
  if (!html) return null;
  return (
    <Typography>
      <div dangerouslySetInnerHTML={{ __html: html }} />
    </Typography>
  );
}
