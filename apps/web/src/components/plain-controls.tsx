import { useId, type CSSProperties, type ReactNode } from 'react';
import { Anchor, Button, Checkbox, Group, Text, UnstyledButton } from '@mantine/core';
import { Link } from '../lib/screen-router';
import { toastInfo } from '../lib/toasts';

/**
 * Mantine's checkbox, subtle button and link as the browser's own elements with the class
 * names, data attributes and variables Mantine gives them, for what a table repeats on every
 * row. Each Mantine component is a styles pass of its own (its props, theme, variables and
 * class names worked out at each render); a page of 25 clients carried 125 of them, rendered
 * and committed as long tasks after the list's first paint (Lighthouse's blocking time,
 * docs/benchmarks.md "Seventh pass"). They look and behave the same:
 * plain-controls.test.tsx holds each to the markup Mantine renders for the same props, so a
 * Mantine upgrade that changes it fails there. Importing the components also brings their
 * style sheets into the chunk (build/mantine-styles.ts).
 */

// Checkbox.classes merges the inline input's classes over the checkbox's own, and both name
// a `root`: the checkbox's own root class is lost there, so it is written here.
const CHECKBOX_ROOT = 'm_bf2d988c';

const checkboxVars = {
  '--checkbox-radius': 'var(--mantine-radius-sm)',
  '--checkbox-color': 'var(--mantine-color-blue-filled)',
} as CSSProperties;

/** Mantine's `<Checkbox aria-label checked onChange />` (no visible label; filled, size sm). */
export function PlainCheckbox(props: { label: string; checked: boolean; onChange(): void }) {
  const id = `mantine-${useId()}`;
  return (
    <div
      className={`${CHECKBOX_ROOT} mantine-Checkbox-root ${Checkbox.classes.root} mantine-Checkbox-root`}
      data-checked={props.checked || undefined}
      data-variant="filled"
      data-label-position="right"
      style={checkboxVars}
    >
      <div className={`${Checkbox.classes.body} mantine-Checkbox-body`}>
        <div className={`${Checkbox.classes.inner} mantine-Checkbox-inner`} data-label-position="right">
          <input
            className={`mantine-focus-auto ${Checkbox.classes.input} mantine-Checkbox-input`}
            data-with-error-styles="true"
            id={id}
            aria-label={props.label}
            type="checkbox"
            checked={props.checked}
            onChange={props.onChange}
          />
          <svg
            viewBox="0 0 10 7"
            fill="none"
            xmlns="http://www.w3.org/2000/svg"
            aria-hidden="true"
            className={`${Checkbox.classes.icon} mantine-Checkbox-icon`}
          >
            <path
              d="M4 4.586L1.707 2.293A1 1 0 1 0 .293 3.707l3 3a.997.997 0 0 0 1.414 0l5-5A1 1 0 1 0 8.293.293L4 4.586z"
              fill="currentColor"
              fillRule="evenodd"
              clipRule="evenodd"
            />
          </svg>
        </div>
        <div className={`${Checkbox.classes.labelWrapper} mantine-Checkbox-labelWrapper`} />
      </div>
    </div>
  );
}

const subtleButtonVars = (color: 'blue' | 'red') =>
  ({
    '--button-height': 'var(--button-height-compact-sm)',
    '--button-padding-x': 'var(--button-padding-x-compact-sm)',
    '--button-fz': 'var(--mantine-font-size-sm)',
    '--button-bg': 'transparent',
    '--button-hover': `var(--mantine-color-${color}-light-hover)`,
    '--button-color': `var(--mantine-color-${color}-light-color)`,
    '--button-bd': 'calc(0.0625rem * var(--mantine-scale)) solid transparent',
  }) as CSSProperties;
const buttonVars = { blue: subtleButtonVars('blue'), red: subtleButtonVars('red') };
/** A blocked action: dark grey (it still reads at 4.5:1, its reason is information), no hover. */
const blockedVars = {
  ...subtleButtonVars('blue'),
  '--button-hover': 'transparent',
  '--button-color': 'var(--mantine-color-gray-7)',
  cursor: 'not-allowed',
} as CSSProperties;

/**
 * Mantine's `<Button size="compact-sm" variant="subtle" color={color}>`. With `blockedReason`
 * the action is refused before it is tried: the button stays in its place and in the tab order
 * (aria-disabled, not disabled, so the reason can be read), carries the reason as its
 * description and its tooltip, and when pressed shows it instead of acting.
 */
export function PlainSubtleButton(props: {
  color?: 'blue' | 'red';
  label: string;
  onClick(): void;
  blockedReason?: string;
  children: ReactNode;
}) {
  const reasonId = useId();
  const blocked = props.blockedReason !== undefined;
  return (
    <button
      className={`mantine-focus-auto mantine-active ${Button.classes.root} mantine-Button-root ${UnstyledButton.classes.root} mantine-UnstyledButton-root`}
      data-variant="subtle"
      data-size="compact-sm"
      type="button"
      aria-label={props.label}
      aria-disabled={blocked || undefined}
      aria-describedby={blocked ? reasonId : undefined}
      title={props.blockedReason}
      style={blocked ? blockedVars : buttonVars[props.color ?? 'blue']}
      // Pressed anyway (a touch screen shows no tooltip): the reason, as a toast.
      onClick={blocked ? () => toastInfo(props.blockedReason ?? '') : props.onClick}
    >
      <span className={`${Button.classes.inner} mantine-Button-inner`}>
        <span className={`${Button.classes.label} mantine-Button-label`}>{props.children}</span>
      </span>
      {blocked && (
        <span id={reasonId} hidden>
          {props.blockedReason}
        </span>
      )}
    </button>
  );
}

const rowGroupVars = {
  '--group-gap': 'calc(0.25rem * var(--mantine-scale))',
  '--group-align': 'center',
  '--group-justify': 'flex-start',
  '--group-wrap': 'nowrap',
} as CSSProperties;

/** Mantine's `<Group gap={4} wrap="nowrap">`: a row's actions side by side. */
export function PlainActionGroup(props: { children: ReactNode }) {
  return (
    <div className={`${Group.classes.root} mantine-Group-root`} style={rowGroupVars}>
      {props.children}
    </div>
  );
}

/** Mantine's `<Anchor component={Link} to={to}>`: a link within the app. */
export function PlainAnchorLink(props: { to: string; children: ReactNode }) {
  return (
    <Link
      to={props.to}
      className={`mantine-focus-auto ${Anchor.classes.root} ${Text.classes.root} mantine-Text-root mantine-Anchor-root`}
      data-underline="hover"
    >
      {props.children}
    </Link>
  );
}
