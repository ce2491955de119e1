/**
 * An alert whose title reads at 4.5:1 or more: the title in shade 9 on shade 0. The light
 * variant's own colours (and shade 9 on its usual fill) stay below it: a teal title measured
 * 4.32:1. For an alert whose title carries the message (a verdict, a done step).
 */
export const strongTitle = (color: 'teal' | 'red') => ({
  root: { backgroundColor: `var(--mantine-color-${color}-0)` },
  title: { color: `var(--mantine-color-${color}-9)` },
});
