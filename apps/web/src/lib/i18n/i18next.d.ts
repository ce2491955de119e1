import 'i18next';
import type { en } from './en';

// Keys are checked against the English texts: a misspelt or missing key fails type-checking.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}
