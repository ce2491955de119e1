import type { Plugin } from 'vite';

/**
 * Only the Mantine CSS a screen uses, loaded with that screen.
 *
 * `@mantine/core/styles.css` holds the rules of every component, and it
 * blocked the first paint of every screen though the sign-in screen uses a dozen components.
 * Mantine also ships each component's rules alone (`@mantine/core/styles/Button.css`), and
 * each component's code reads its class names from a module of the same name
 * (`components/Button/Button.module.mjs`), one for one. So this plugin adds the import of
 * `styles/<Name>.css` to `<Name>.module.mjs` as the bundler reads it: a component's CSS then
 * follows its JavaScript into whichever chunk uses it, and Vite loads the chunk's CSS with
 * it. Nothing has to be listed by hand, so a component added to a screen brings its styles.
 * The rules every component relies on (baseline, the default CSS variables, global) are
 * imported once by main.tsx.
 *
 * The files are Mantine's `.layer.css` versions, whose rules sit in the `mantine` cascade
 * layer: with chunks' CSS arriving in the order the screens load, the app's own rules must
 * win over Mantine's whatever the order, as they did when Mantine's one file came first.
 */
// Components keep their modules under esm/components; the checkbox, radio and switch share
// one under esm/utils/InlineInput.
const CLASS_NAMES_MODULE =
  /[\\/]@mantine[\\/]core[\\/]esm[\\/](?:components|utils)[\\/](?:[^\\/]+[\\/])*([A-Za-z]+)\.module\.mjs$/;

/** The style sheet a Mantine class-names module needs, or null for any other module. */
export function stylesFor(id: string): string | null {
  const match = CLASS_NAMES_MODULE.exec(id.split('?')[0] ?? id);
  return match ? `@mantine/core/styles/${match[1]}.layer.css` : null;
}

export function mantineStylesPerComponent(): Plugin {
  return {
    name: 'pss-mantine-styles-per-component',
    enforce: 'pre',
    transform(code, id) {
      const sheet = stylesFor(id);
      if (!sheet) return null;
      const styles = `import '${sheet}';\n`;
      // A "use client" directive stays the module's first statement.
      const directive = /^\s*(['"])use client\1;?\s*\n/.exec(code)?.[0] ?? '';
      return { code: directive + styles + code.slice(directive.length), map: null };
    },
  };
}
