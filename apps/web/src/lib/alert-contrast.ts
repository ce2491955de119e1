/**
 * An alert whose title reads at 4.5:1 or more: the title in shade 9 on shade 0. The light
 * variant's own colours (and shade 9 on its usual fill) stay below it: a teal title measured
 * 4.32:1. For an alert whose title carries the message (a verdict, a done step).
 */
export const strongTitle = (color: 'teal' | 'red') => ({
  root: { backgroundColor: `var(--mantine-color-${color}-0)` },
  title: { color: `var(--mantine-color-${color}-9)` },
});

/**
 * A warning (yellow) whose title reads at 4.5:1 or more. No yellow or orange shade does on a
 * pale fill (yellow-9 measured 2.68:1, orange-9 3.96:1), so the title is the page's dark grey
 * on yellow-0; the colour of the fill says it is a warning.
 */
export const warningTitle = {
  root: { backgroundColor: 'var(--mantine-color-yellow-0)' },
  title: { color: 'var(--mantine-color-gray-9)' },
};
