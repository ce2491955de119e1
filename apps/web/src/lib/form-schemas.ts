/**
 * The contract's schemas that the editors check their forms with, in a module of their own:
 * fetched once an editor has painted (./deferred-contract-resolver.ts), so zod and the
 * schemas are not part of the editor's first download.
 */
export { saveEmailBody, updateCaseBody } from '@pss/contract';
