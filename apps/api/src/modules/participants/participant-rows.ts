import {
  PARTICIPANT_ASSIGNMENT_COLUMNS,
  PARTICIPANT_OPTIONAL_COLUMNS,
  PARTICIPANT_REQUIRED_COLUMNS,
  isParticipantRole,
  participantRoles,
  professions,
  type ErrorCode,
  MAX_MOBILE_NUMBER,
  MAX_SALUTATION,
  MOBILE_NUMBER_MESSAGE,
  MOBILE_NUMBER_PATTERN,
  SALUTATION_PATTERN,
} from '@pss/contract';
import { csvCellValue } from '../../lib/table-writer.js';
import { orderedId } from '../../lib/ordered-ids.js';

export interface ImportSeason {
  id: string;
  name: string;
  startDate: string | null;
  endDate: string | null;
  rounds: { number: number; startDate: string }[];
}

/** One row of an import file that passed its own checks, as it goes to the database. */
export interface CheckedRow {
  line: number;
  /**
   * The id the participant gets if their email is new (the same on every row of that email);
   * time-ordered (UUID version 7, in order also within a millisecond), so that the import
   * writes its rows in index order.
   */
  newUserId: string;
  email: string;
  employeeId: string;
  role: string;
  profession: string;
  salutation: string | null;
  firstName: string;
  lastName: string;
  secondaryEmail: string | null;
  mobileNumber: string | null;
  npi: string | null;
  practiceNumber: string | null;
  facility: string | null;
  specialty: string | null;
  managerFirstName: string | null;
  managerLastName: string | null;
  managerEmail: string | null;
  userType: string | null;
  seasonId: string | null;
  firstRound: number | null;
  lastRound: number | null;
  startDate: string | null;
}

export interface RowProblem {
  line: number;
  errorCode: ErrorCode;
  message: string;
}

const EMAIL = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;
const ROUNDS = /^([1-4])(?:\s*-\s*([1-4]))?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** `A, B or C`: the allowed values as a refusal names them. */
const oneOf = (values: readonly string[]) => `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
const ROLES_TEXT = oneOf(participantRoles);
const PROFESSIONS_TEXT = oneOf(professions);

/** The user's details an import sets besides role (for existing users as well as new ones). */
const USER_DETAIL_COLUMNS = ['salutation', ...PARTICIPANT_OPTIONAL_COLUMNS] as const;

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** A calendar date as YYYY-MM-DD (checked by arithmetic: a large import checks 100,000 of them). */
function isRealDate(value: string): boolean {
  if (!DATE.test(value)) return false;
  const year = Number(value.slice(0, 4));
  const month = Number(value.slice(5, 7));
  const day = Number(value.slice(8, 10));
  if (month < 1 || month > 12 || day < 1 || day > DAYS_IN_MONTH[month - 1]!) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return !(month === 2 && day === 29 && !leap);
}

/**
 * Checks participant rows one at a time, as they stream in, and remembers just enough
 * (one small entry per clinician) to catch rows that contradict each other.
 */
export function createParticipantRowChecker(seasons: ImportSeason[]) {
  const seasonsByName = new Map(seasons.map((s) => [s.name.trim().toLowerCase(), s]));
  const clinicians = new Map<
    string,
    { line: number; email: string; first: string; last: string; profession: string; details: string }
  >();
  const emails = new Map<string, { employeeId: string; line: number; newUserId: string }>();
  const seasonRows = new Set<string>();

  /**
   * Checks one row: its cells, and where each column is among them (from the header, made
   * once per file rather than an object per row).
   */
  return function checkRow(
    line: number,
    cells: readonly string[],
    columnAt: Readonly<Record<string, number>>,
  ): { problems: RowProblem[]; row?: CheckedRow } {
    const problems: RowProblem[] = [];
    const problem = (errorCode: ErrorCode, message: string) =>
      problems.push({ line, errorCode, message: `Line ${line}: ${message}` });
    // Read as exported: the export's formula guard comes off (an exported file re-imports as it was).
    const v = (name: string) => {
      const at = columnAt[name];
      return at === undefined ? '' : csvCellValue((cells[at] ?? '').trim());
    };

    const employeeId = v('user_id');
    const email = v('email').toLowerCase();
    const role = v('role').toUpperCase();
    const profession = v('profession').toUpperCase();
    if (!employeeId) problem('USER_ID_REQUIRED', 'user_id is required.');
    if (!v('salutation')) problem('SALUTATION_REQUIRED', 'salutation is required.');
    else if (!SALUTATION_PATTERN.test(v('salutation')) || v('salutation').length > MAX_SALUTATION) {
      problem('INVALID_SALUTATION', `salutation "${v('salutation')}" is not a salutation (such as Dr., Mrs or Mr).`);
    }
    if (
      v('mobile_number') &&
      (!MOBILE_NUMBER_PATTERN.test(v('mobile_number')) || v('mobile_number').length > MAX_MOBILE_NUMBER)
    ) {
      problem('USER_DATA_INVALID', `mobile_number "${v('mobile_number')}": ${MOBILE_NUMBER_MESSAGE.toLowerCase()}.`);
    }
    if (!v('first_name')) problem('FIRST_NAME_REQUIRED', 'first_name is required.');
    if (!v('last_name')) problem('LAST_NAME_REQUIRED', 'last_name is required.');
    if (!isParticipantRole(role)) {
      problem('ROLE_REQUIRED', `role must be ${ROLES_TEXT}${v('role') ? `, not "${v('role')}"` : ''}.`);
    }
    if (!EMAIL.test(email)) problem('USER_DATA_INVALID', `"${v('email')}" is not a valid email.`);
    if (!(professions as readonly string[]).includes(profession))
      problem(
        'USER_DATA_INVALID',
        `profession must be ${PROFESSIONS_TEXT}${v('profession') ? `, not "${v('profession')}"` : ''}.`,
      );
    for (const column of ['secondary_email', 'manager_email']) {
      if (v(column) && !EMAIL.test(v(column)))
        problem('USER_DATA_INVALID', `${column} "${v(column)}" is not a valid email.`);
    }

    // The same clinician on several rows (one per season) must be the same person.
    if (employeeId && email) {
      const seen = clinicians.get(employeeId);
      // The other details go onto the user too, so every row must give the same ones.
      const details = [role, ...USER_DETAIL_COLUMNS.map(v)].join('\u0000');
      const current = { line, email, first: v('first_name'), last: v('last_name'), profession, details };
      if (!seen) clinicians.set(employeeId, current);
      else if (
        seen.email !== email ||
        seen.first !== current.first ||
        seen.last !== current.last ||
        seen.profession !== profession ||
        seen.details !== details
      ) {
        problem('USER_DATA_INVALID', `user_id ${employeeId} has other details on line ${seen.line}.`);
      }
      const owner = emails.get(email);
      if (!owner) emails.set(email, { employeeId, line, newUserId: orderedId() });
      else if (owner.employeeId !== employeeId)
        problem(
          'USER_DATA_INVALID',
          `email ${email} is also used by user_id ${owner.employeeId} on line ${owner.line}.`,
        );
    }

    // The assignment: a season of the project, its rounds, and a start date inside it.
    const assignment: Pick<CheckedRow, 'seasonId' | 'firstRound' | 'lastRound' | 'startDate'> = {
      seasonId: null,
      firstRound: null,
      lastRound: null,
      startDate: null,
    };
    const seasonName = v('season');
    if (seasonName) {
      const season = seasonsByName.get(seasonName.toLowerCase());
      const rounds = ROUNDS.exec(v('rounds'));
      if (!season) problem('ASSIGNMENTS_FORMAT_INVALID', `season "${seasonName}" is not a season of this project.`);
      if (!rounds) problem('ASSIGNMENTS_FORMAT_INVALID', `rounds must look like 1-4, 2-3 or 2, not "${v('rounds')}".`);
      const first = rounds ? Number(rounds[1]) : 0;
      const last = rounds ? Number(rounds[2] ?? rounds[1]) : 0;
      if (rounds && last < first) problem('ASSIGNMENTS_FORMAT_INVALID', `rounds ${v('rounds')} run backwards.`);
      if (season && rounds && last >= first) {
        const missing = [first, last].filter((n) => !season.rounds.some((r) => r.number === n));
        if (missing.length)
          problem('ASSIGNMENTS_FORMAT_INVALID', `season "${season.name}" has no Round ${missing[0]}.`);
        const key = `${employeeId}|${season.id}`;
        if (seasonRows.has(key))
          problem('ASSIGNMENTS_FORMAT_INVALID', `user_id ${employeeId} already has a row for season "${season.name}".`);
        seasonRows.add(key);
        const startDate = v('start_date') || season.rounds.find((r) => r.number === first)?.startDate || '';
        if (!isRealDate(startDate)) {
          problem('ASSIGNMENTS_DATE_INVALID', `start_date must be a date as YYYY-MM-DD, not "${v('start_date')}".`);
        } else if (season.startDate && season.endDate && (startDate < season.startDate || startDate > season.endDate)) {
          problem(
            'ASSIGNMENTS_DATE_INVALID',
            `start_date ${startDate} is outside season "${season.name}" (${season.startDate} to ${season.endDate}).`,
          );
        }
        Object.assign(assignment, { seasonId: season.id, firstRound: first, lastRound: last, startDate });
      }
    } else if (v('rounds') || v('start_date')) {
      problem('ASSIGNMENTS_FORMAT_INVALID', 'rounds and start_date need a season.');
    }

    if (problems.length) return { problems };
    const optional = (column: string) => v(column) || null;
    return {
      problems,
      row: {
        line,
        newUserId: emails.get(email)!.newUserId,
        email,
        employeeId,
        role,
        profession,
        salutation: v('salutation'),
        firstName: v('first_name'),
        lastName: v('last_name'),
        secondaryEmail: optional('secondary_email'),
        mobileNumber: optional('mobile_number'),
        npi: optional('npi'),
        practiceNumber: optional('practice_number'),
        facility: optional('facility'),
        specialty: optional('specialty'),
        managerFirstName: optional('manager_first_name'),
        managerLastName: optional('manager_last_name'),
        managerEmail: optional('manager_email'),
        userType: optional('user_type'),
        ...assignment,
      },
    };
  };
}

export const PARTICIPANT_ALL_COLUMNS = [
  ...PARTICIPANT_REQUIRED_COLUMNS,
  ...PARTICIPANT_OPTIONAL_COLUMNS,
  ...PARTICIPANT_ASSIGNMENT_COLUMNS,
];
