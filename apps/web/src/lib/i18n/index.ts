import type { adminTexts } from './admin-texts';
import type { secondFactorTexts } from './second-factor-texts';
import type { caseTexts } from './case-texts';
import type { certificateTexts } from './certificate-texts';
import type { accountPageTexts } from './account-page-texts';
import type { participantPageTexts } from './participant-page-texts';
import { publicTexts } from './public-texts';

/**
 * The app's texts and the function that looks them up. English is the only language today;
 * every text on a screen goes through `t`, so another can be added as one more set of texts.
 *
 * This is a small translator of our own rather than i18next: the app uses nested keys,
 * `{{name}}` values and `_one`/`_other` plurals and nothing else, and i18next with its React
 * binding weighed more than the app's own texts on every first screen. The texts come in
 * two parts: the public ones (sign-in, the participants' side, shared components) with the
 * first screen, the administrators' ones with the staff shell (`./admin-texts`, registered by
 * app/route-gates.tsx). `texts-split.test.ts` checks that no public screen uses an
 * administrators' text.
 */

type Texts = typeof publicTexts &
  typeof adminTexts &
  typeof secondFactorTexts &
  typeof caseTexts &
  typeof certificateTexts &
  typeof accountPageTexts &
  typeof participantPageTexts;

type LeafKeys<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : LeafKeys<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

type PluralBase<K extends string> = K extends `${infer Base}_${'one' | 'other'}` ? Base : never;

/** Every text's key; a misspelt or missing key fails type-checking. */
export type TextKey = LeafKeys<Texts> | PluralBase<LeafKeys<Texts>>;
/** Values put into a text's `{{name}}` slots; `count` also picks the plural form. */
export type TextValues = Record<string, unknown>;
export type TFunction = (key: TextKey, values?: TextValues) => string;

/**
 * The registered sets of texts, newest first. A key is looked up by walking them, and the
 * answer kept: flattening every set into dotted keys up front was a cost in the staff shell's
 * start on a phone-class CPU, for the administrators' thousand texts, most of them never
 * shown on the screen being opened.
 */
const sets: object[] = [];
const found = new Map<string, string | undefined>();

/** Adds a set of texts (nested objects of strings), looked up by their dotted keys. */
export function registerTexts(texts: object): void {
  sets.unshift(texts);
  found.clear();
}

function lookup(key: string): string | undefined {
  if (found.has(key)) return found.get(key);
  let text: string | undefined;
  const path = key.split('.');
  for (const set of sets) {
    let node: unknown = set;
    for (const name of path)
      node = node && typeof node === 'object' ? (node as Record<string, unknown>)[name] : undefined;
    if (typeof node === 'string') {
      text = node;
      break;
    }
  }
  found.set(key, text);
  return text;
}

registerTexts(publicTexts);

// Made on the first plural, not at start-up: building an Intl object loads the browser's locale
// data, work the first screen need not wait on.
let plurals: Intl.PluralRules | undefined;
function pluralCategory(count: number): Intl.LDMLPluralRule {
  plurals ??= new Intl.PluralRules('en');
  return plurals.select(count);
}
const SLOT = /\{\{\s*([\w.]+)\s*\}\}/g;

/** The text for `key` with `values` put in; a key with no text answers itself, as i18next did. */
export const t: TFunction = (key, values) => {
  const count = values?.count;
  const text =
    (typeof count === 'number' ? (lookup(`${key}_${pluralCategory(count)}`) ?? lookup(`${key}_other`)) : undefined) ??
    lookup(key);
  if (text === undefined) {
    if (import.meta.env.DEV) console.warn(`No text for "${key}"`);
    return key;
  }
  if (!values) return text;
  return text.replace(SLOT, (slot, name: string) => (name in values ? String(values[name]) : slot));
};

const translation = { t };

/** The texts for a component; `t` never changes, so it is safe in effects' dependencies. */
export function useTranslation(): { t: TFunction } {
  return translation;
}

export default translation;
