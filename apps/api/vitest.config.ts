import { configDefaults, defineProject } from 'vitest/config';

/**
 * `*.alone.test.ts` files time the server (health answering while hostile files are drawn):
 * another test file on the other core would be measured with them. `npm test` runs them in
 * a step of their own (PSS_ALONE_TESTS=1, one worker); every other run leaves them out.
 */
const alone = process.env.PSS_ALONE_TESTS === '1';

export default defineProject({
  test: {
    name: 'api',
    include: alone
      ? ['src/**/*.alone.test.ts', 'test/**/*.alone.test.ts']
      : ['src/**/*.test.ts', 'demo/**/*.test.ts', 'test/**/*.test.ts', 'simulation/**/*.test.ts'],
    exclude: alone ? configDefaults.exclude : [...configDefaults.exclude, '**/*.alone.test.ts'],
    environment: 'node',
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
