/**
 * A client's own fields, each named once, in the order the wire, the form and the list give
 * them. What else spells a field follows from this list:
 *   - the contract's `client` reply and `clientBody` (clients.ts) and the list's sort fields
 *     (sort-fields.ts);
 *   - the API's mapping between a row and the wire, its inserts and updates, the list's search
 *     and sort columns (apps/api/src/modules/clients/client-columns.ts: the table's column of a
 *     field is its name in camelCase, `cap_id` → `capId`);
 *   - the web's form, list columns and detail lines (apps/web/src/features/clients/client-fields-view.tsx).
 * A new field is this entry, its column in apps/api/src/db/schema/clients.ts with the migration,
 * and its label in the web's texts (CONTRIBUTING.md, "Add a client field").
 *
 * Plain values only, no zod and no calls: the clients list reads this for its columns, and a
 * screen that reads a module gets all of it (docs/design/web-delivery.md).
 */

/** How a field's value is checked: clients.ts makes each kind's zod schema. */
export type ClientFieldValue =
  /** A check of its own, spelled in clients.ts (`ownClientFieldRules`). */
  | 'own'
  /** Text of at most `max` characters, trimmed; '' or null: none. */
  | 'text'
  /** An email address (INVALID_EMAIL); '' or null: none. */
  | 'email'
  /** A phone number (INVALID_PHONE); '' or null: none. */
  | 'phone';

/** How one field is checked, kept and shown. */
export type ClientFieldSpec = (
  | { readonly value: 'own' | 'email' | 'phone' }
  /** `max`: the longest text it takes. */
  | { readonly value: 'text'; readonly max: number }
) & {
  /** Every client has one: never null on the wire, required in the form. */
  readonly required?: boolean;
  /**
   * An update (`PUT /clients/{id}`) that leaves the field out clears it. Only the first
   * fields do, as they always have; any other is kept when left out, so a caller that does
   * not know a newer field does not erase it.
   */
  readonly clearedWhenLeftOut?: boolean;
  /** The list may be sorted by it (`?sort=`): its column needs an index. */
  readonly sortable?: boolean;
  /** The list's `search` matches it: its column needs a trigram index. */
  readonly searchable?: boolean;
  /** A column of the clients list. */
  readonly listed?: boolean;
  /** A line of the client's page. */
  readonly detailed?: boolean;
  /** Its text key among the web's `clients` texts (the form's label, the column's header). */
  readonly label: string;
  /** The form shows the text `<label>Hint` under the input. */
  readonly hint?: boolean;
};

export const clientFields = {
  name: {
    value: 'own',
    required: true,
    clearedWhenLeftOut: true,
    sortable: true,
    searchable: true,
    listed: true,
    label: 'name',
  },
  /** CAP member number, unique among clients. */
  cap_id: {
    value: 'own',
    clearedWhenLeftOut: true,
    sortable: true,
    searchable: true,
    listed: true,
    detailed: true,
    label: 'capId',
    hint: true,
  },
  /** Set by hand or from the CAP roster (`POST /clients/cap/import`). */
  cap_status: {
    value: 'own',
    clearedWhenLeftOut: true,
    sortable: true,
    listed: true,
    detailed: true,
    label: 'capStatus',
  },
  /** Its own support contact (null: the server's SUPPORT_EMAIL / SUPPORT_PHONE). */
  support_email: { value: 'email', label: 'supportEmail', hint: true },
  support_phone: { value: 'phone', label: 'supportPhone', hint: true },
  /** Whom the provider writes to at the client (not named in its emails). */
  contact_email: { value: 'email', detailed: true, label: 'contactEmail' },
} as const satisfies Record<string, ClientFieldSpec>;

export type ClientFields = typeof clientFields;
export type ClientFieldName = keyof ClientFields;
/** The fields whose value is checked as `kind`. */
export type ClientFieldsOfValue<Kind extends ClientFieldValue> = {
  [Name in ClientFieldName]: ClientFields[Name]['value'] extends Kind ? Name : never;
}[ClientFieldName];
