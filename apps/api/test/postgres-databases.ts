/**
 * Names and URLs of the PostgreSQL databases the API tests make and drop. Two checkouts
 * testing on one server at once (git worktrees) each set TEST_TEMPLATE_DATABASE, or the
 * second run's setup would drop the first one's template mid-run.
 */
export const TEMPLATE_DATABASE = /^[a-z_][a-z0-9_]{0,62}$/.test(process.env.TEST_TEMPLATE_DATABASE ?? '')
  ? process.env.TEST_TEMPLATE_DATABASE!
  : 'pss_test_template';

export function adminUrl(baseUrl: string, database: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
