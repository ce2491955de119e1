/** Names and URLs of the PostgreSQL databases the API tests make and drop. */
export const TEMPLATE_DATABASE = 'pss_test_template';

export function adminUrl(baseUrl: string, database: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
