/**
 * Escapes LIKE wildcards so that a search for `50%` finds "50%", not everything. Here in `db/`,
 * below `lib/`, because the participant search's SQL (`participant-search.ts`) needs it too;
 * `lib/list-query.ts` passes it on to the lists.
 */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
