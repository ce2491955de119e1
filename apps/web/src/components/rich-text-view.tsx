import { Typography } from '@mantine/core';

/**
 * Shows rich text the server stored. It is safe to insert: the API sanitises every rich-text
 * field on save (no scripts, event handlers or javascript: links), and nothing else reaches here.
 */
export function RichTextView({ html }: { html: string }) {
  if (!html) return null;
  return (
    <Typography>
      <div dangerouslySetInnerHTML={{ __html: html }} />
    </Typography>
  );
}
