import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * compose.yaml is what an operator runs as it is. A default for a secret or for the public
 * address is a value they never chose: a database password everyone knows, and links to
 * localhost with cookies that lack `Secure`. Those variables must be required
 * (`${VAR:?message}`: compose refuses to start without them).
 */
const composeText = readFileSync(path.resolve(import.meta.dirname, '../../../compose.yaml'), 'utf8');
// Comments may show an example command; only the settings count.
const settings = composeText
  .split('\n')
  .filter((line) => !line.trim().startsWith('#'))
  .join('\n');

/** Every `${…}` in the settings: the variable and what follows its name (`:?message`, `:-default`, …). */
const interpolations = [...settings.matchAll(/\$\{([A-Z0-9_]+)([^}]*)\}/g)].map((m) => ({
  name: m[1]!,
  rest: m[2]!,
}));

const required = ['POSTGRES_PASSWORD', 'PUBLIC_URL', 'SESSION_SECRET'];

describe('compose.yaml', () => {
  it.each(required)('requires %s: every use is ${VAR:?message}, none has a default', (name) => {
    const uses = interpolations.filter((i) => i.name === name);
    expect(uses.length).toBeGreaterThan(0);
    for (const use of uses) expect(use.rest, `\${${name}${use.rest}}`).toMatch(/^:\?\S/);
  });

  it('writes no value of its own for them either', () => {
    for (const name of required) {
      for (const [, value] of settings.matchAll(new RegExp(`^\\s*${name}:\\s*(.*)$`, 'gm'))) {
        expect(value!.trim(), name).toMatch(new RegExp(`^['"]?\\$\\{${name}:\\?`));
      }
    }
    // The database URL takes the password from the same required variable.
    expect(settings).toMatch(/DATABASE_URL: postgres:\/\/pss:\$\{POSTGRES_PASSWORD:\?[^}]+\}@postgres/);
  });
});
