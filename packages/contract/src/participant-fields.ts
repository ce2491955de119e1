/**
 * A participant's details (spec §3), each named once, in the order the user form, the import
 * file and the export give them. What else spells a detail follows from this list:
 *   - the import file's optional columns (`PARTICIPANT_OPTIONAL_COLUMNS`, participants.ts) and
 *     the export's columns;
 *   - `userDetails` and `updateUserBody` (users.ts);
 *   - the API's import checks and writes (modules/participants: participant-rows.ts,
 *     import-writes.ts), its export (participant-export-reads.ts, participants.service.ts) and
 *     User Management's mapping (modules/users/user-management.service.ts), each column being
 *     the detail's name in camelCase in apps/api/src/db/schema/users.ts (`npi` → `npi`,
 *     `practice_number` → `practiceNumber`);
 *   - the web's user form (apps/web/src/features/users/user-details-form.tsx), labelled by
 *     `users.fields.<name>` (lib/i18n/admin-areas/users.ts).
 * A new detail is this entry, its column in db/schema/users.ts with the migration, and its label.
 *
 * Who the participant is (user ID, salutation, names, email, role, profession) is not here:
 * each of those has rules of its own (required in the file, never changed by an import), spelled
 * where they apply; the file's columns for them are `PARTICIPANT_REQUIRED_COLUMNS`.
 *
 * Plain values only, no zod and no calls (docs/design/web-delivery.md).
 */

/** How a detail's value is checked (users.ts makes each kind's zod schema; the import checks the same). */
export type ParticipantFieldSpec = (
  | {
      /** An email address (INVALID_EMAIL in a call, which lower-cases it; USER_DATA_INVALID in an import). */
      readonly value: 'email';
    }
  | {
      /** A mobile number: MOBILE_NUMBER_PATTERN, at most MAX_MOBILE_NUMBER characters (users.ts). */
      readonly value: 'mobile';
    }
  | {
      /** Text, trimmed, of at most `max` characters in a call (an import takes it as it is). */
      readonly value: 'text';
      readonly max: number;
    }
) & {
  /** A column of the participant import file, under the detail's name, and of the export. */
  readonly imported?: boolean;
};

export const participantFields = {
  /** The name the participant chooses to be greeted by (the participant side sets it too); not in files. */
  display_name: { value: 'text', max: 100 },
  secondary_email: { value: 'email', imported: true },
  mobile_number: { value: 'mobile', imported: true },
  npi: { value: 'text', max: 20, imported: true },
  practice_number: { value: 'text', max: 40, imported: true },
  facility: { value: 'text', max: 200, imported: true },
  specialty: { value: 'text', max: 100, imported: true },
  manager_first_name: { value: 'text', max: 100, imported: true },
  manager_last_name: { value: 'text', max: 100, imported: true },
  manager_email: { value: 'email', imported: true },
  user_type: { value: 'text', max: 60, imported: true },
} as const satisfies Record<string, ParticipantFieldSpec>;

export type ParticipantFields = typeof participantFields;
export type ParticipantFieldName = keyof ParticipantFields;
