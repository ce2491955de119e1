/**
 * The contract's schemas that forms check their values with, in a module of their own:
 * fetched once a form's screen has painted (./deferred-contract-resolver.ts), so zod and the
 * schemas are not part of the screen's first download.
 */
export {
  createPasswordBody,
  createResourceBody,
  passwordWithCodeBody,
  saveEmailBody,
  updateCaseBody,
  updateResourceBody,
  verifyEmailBody,
} from '@pss/contract';
