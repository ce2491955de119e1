import {
  PARTICIPANT_ASSIGNMENT_COLUMNS,
  PARTICIPANT_OPTIONAL_COLUMNS,
  PARTICIPANT_REQUIRED_COLUMNS,
  participantFields,
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
  /** The details the file gives, in PARTICIPANT_OPTIONAL_COLUMNS' order (participant-fields.ts); '' is null. */
  details: (string | null)[];
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

/** The details' checks, in PARTICIPANT_OPTIONAL_COLUMNS' order: each detail's kind (participant-fields.ts). */
const DETAIL_KINDS = PARTICIPANT_OPTIONAL_COLUMNS.map((name) => participantFields[name].value);

/** What is wrong with a detail's value, by its kind, or null (an empty value is none, and fine). */
function detailProblem(name: string, kind: (typeof DETAIL_KINDS)[number], value: string): string | null {
  if (!value) return null;
  switch (kind) {
    case 'email':
      return EMAIL.test(value) ? null : `${name} "${value}" is not a valid email.`;
    case 'mobile':
      return MOBILE_NUMBER_PATTERN.test(value) && value.length <= MAX_MOBILE_NUMBER
        ? null
        : `${name} "${value}": ${MOBILE_NUMBER_MESSAGE.toLowerCase()}.`;
    case 'text':
      return null;
  }
}

/** Where each column the checker reads is in the file's rows (-1: the file has no such column). */
function columnIndexes(columnAt: Readonly<Record<string, number>>) {
  const at = (name: (typeof PARTICIPANT_ALL_COLUMNS)[number]) => columnAt[name] ?? -1;
  return {
    userId: at('user_id'),
    salutation: at('salutation'),
    firstName: at('first_name'),
    lastName: at('last_name'),
    email: at('email'),
    role: at('role'),
    profession: at('profession'),
    details: PARTICIPANT_OPTIONAL_COLUMNS.map(at),
    season: at('season'),
    rounds: at('rounds'),
    startDate: at('start_date'),
  };
}

/** A cell as exported: trimmed, and the export's formula guard taken off (an exported file re-imports as it was). */
function cellOf(cells: readonly string[], at: number): string {
  return at < 0 ? '' : csvCellValue((cells[at] ?? '').trim());
}

/** One row's refusal, as the job lists it. */
function problemOf(line: number, errorCode: ErrorCode, message: string): RowProblem {
  return { line, errorCode, message: `Line ${line}: ${message}` };
}

/** What a row's checks answer: the rejected row's problems, or the checked row. */
export type RowCheck = { problems: RowProblem[]; row?: undefined } | { problems: readonly []; row: CheckedRow };

const NO_PROBLEMS: readonly [] = [];

/**
 * Checks participant rows one at a time, as they stream in, and remembers just enough
 * (one small entry per clinician) to catch rows that contradict each other.
 *
 * A large import checks 100,000 rows: each cell is read once, where its column is is worked
 * out once per file, and a row that passes allocates little beyond the checked row itself
 * (which its batch turns into COPY text at once, so it dies young).
 */
export function createParticipantRowChecker(seasons: ImportSeason[]) {
  const seasonsByName = new Map(
    seasons.map((s) => [
      s.name.trim().toLowerCase(),
      { season: s, roundStarts: new Map(s.rounds.map((r) => [r.number, r.startDate])) },
    ]),
  );
  /**
   * Each user ID's first row: its line, and everything the user gets from it (email, names,
   * profession, role and the other details, joined), which every row of it must repeat.
   */
  const clinicians = new Map<string, { line: number; identity: string }>();
  const emails = new Map<string, { employeeId: string; line: number; newUserId: string }>();
  const seasonRows = new Set<string>();
  let indexesOf: Readonly<Record<string, number>> | null = null;
  let at = columnIndexes({});

  /**
   * Checks one row: its cells, and where each column is among them (from the header, made
   * once per file rather than an object per row).
   */
  return function checkRow(
    line: number,
    cells: readonly string[],
    columnAt: Readonly<Record<string, number>>,
  ): RowCheck {
    if (columnAt !== indexesOf) {
      at = columnIndexes(columnAt);
      indexesOf = columnAt;
    }
    let problems: RowProblem[] | null = null;
    const problem = (errorCode: ErrorCode, message: string) => {
      (problems ??= []).push(problemOf(line, errorCode, message));
    };

    const employeeId = cellOf(cells, at.userId);
    const rawEmail = cellOf(cells, at.email);
    const email = rawEmail.toLowerCase();
    const rawRole = cellOf(cells, at.role);
    const role = rawRole.toUpperCase();
    const rawProfession = cellOf(cells, at.profession);
    const profession = rawProfession.toUpperCase();
    const salutation = cellOf(cells, at.salutation);
    const firstName = cellOf(cells, at.firstName);
    const lastName = cellOf(cells, at.lastName);
    // Checked as text, then stored with '' as null (in place: one array per row).
    const details: (string | null)[] = at.details.map((index) => cellOf(cells, index));

    if (!employeeId) problem('USER_ID_REQUIRED', 'user_id is required.');
    if (!salutation) problem('SALUTATION_REQUIRED', 'salutation is required.');
    else if (!SALUTATION_PATTERN.test(salutation) || salutation.length > MAX_SALUTATION) {
      problem('INVALID_SALUTATION', `salutation "${salutation}" is not a salutation (such as Dr., Mrs or Mr).`);
    }
    if (!firstName) problem('FIRST_NAME_REQUIRED', 'first_name is required.');
    if (!lastName) problem('LAST_NAME_REQUIRED', 'last_name is required.');
    if (!isParticipantRole(role)) {
      problem('ROLE_REQUIRED', `role must be ${ROLES_TEXT}${rawRole ? `, not "${rawRole}"` : ''}.`);
    }
    if (!EMAIL.test(email)) problem('USER_DATA_INVALID', `"${rawEmail}" is not a valid email.`);
    if (!(professions as readonly string[]).includes(profession))
      problem(
        'USER_DATA_INVALID',
        `profession must be ${PROFESSIONS_TEXT}${rawProfession ? `, not "${rawProfession}"` : ''}.`,
      );
    for (let i = 0; i < details.length; i += 1) {
      const wrong = detailProblem(PARTICIPANT_OPTIONAL_COLUMNS[i]!, DETAIL_KINDS[i]!, details[i] ?? '');
      if (wrong) problem('USER_DATA_INVALID', wrong);
    }

    // The same clinician on several rows (one per season) must be the same person.
    if (employeeId && email) {
      const seen = clinicians.get(employeeId);
      // The other details go onto the user too, so every row must give the same ones.
      // (Joined by an array: one flat string to keep, not a chain of concatenations.)
      const identity = [email, firstName, lastName, profession, role, salutation, ...details].join('\u0000');
      if (!seen) clinicians.set(employeeId, { line, identity });
      else if (seen.identity !== identity) {
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
    let seasonId: string | null = null;
    let firstRound: number | null = null;
    let lastRound: number | null = null;
    let startDate: string | null = null;
    const seasonName = cellOf(cells, at.season);
    const roundsCell = cellOf(cells, at.rounds);
    const startCell = cellOf(cells, at.startDate);
    if (seasonName) {
      const known = seasonsByName.get(seasonName.toLowerCase());
      const rounds = ROUNDS.exec(roundsCell);
      if (!known) problem('ASSIGNMENTS_FORMAT_INVALID', `season "${seasonName}" is not a season of this project.`);
      if (!rounds) problem('ASSIGNMENTS_FORMAT_INVALID', `rounds must look like 1-4, 2-3 or 2, not "${roundsCell}".`);
      const first = rounds ? Number(rounds[1]) : 0;
      const last = rounds ? Number(rounds[2] ?? rounds[1]) : 0;
      if (rounds && last < first) problem('ASSIGNMENTS_FORMAT_INVALID', `rounds ${roundsCell} run backwards.`);
      if (known && rounds && last >= first) {
        const { season, roundStarts } = known;
        const missing = !roundStarts.has(first) ? first : !roundStarts.has(last) ? last : null;
        if (missing !== null) problem('ASSIGNMENTS_FORMAT_INVALID', `season "${season.name}" has no Round ${missing}.`);
        const key = `${employeeId}|${season.id}`;
        if (seasonRows.has(key))
          problem('ASSIGNMENTS_FORMAT_INVALID', `user_id ${employeeId} already has a row for season "${season.name}".`);
        seasonRows.add(key);
        const start = startCell || roundStarts.get(first) || '';
        if (!isRealDate(start)) {
          problem('ASSIGNMENTS_DATE_INVALID', `start_date must be a date as YYYY-MM-DD, not "${startCell}".`);
        } else if (season.startDate && season.endDate && (start < season.startDate || start > season.endDate)) {
          problem(
            'ASSIGNMENTS_DATE_INVALID',
            `start_date ${start} is outside season "${season.name}" (${season.startDate} to ${season.endDate}).`,
          );
        }
        seasonId = season.id;
        firstRound = first;
        lastRound = last;
        startDate = start;
      }
    } else if (roundsCell || startCell) {
      problem('ASSIGNMENTS_FORMAT_INVALID', 'rounds and start_date need a season.');
    }

    if (problems) return { problems };
    for (let i = 0; i < details.length; i += 1) if (!details[i]) details[i] = null;
    return {
      problems: NO_PROBLEMS,
      row: {
        line,
        newUserId: emails.get(email)!.newUserId,
        email,
        employeeId,
        role,
        profession,
        salutation,
        firstName,
        lastName,
        details,
        seasonId,
        firstRound,
        lastRound,
        startDate,
      },
    };
  };
}

export const PARTICIPANT_ALL_COLUMNS = [
  ...PARTICIPANT_REQUIRED_COLUMNS,
  ...PARTICIPANT_OPTIONAL_COLUMNS,
  ...PARTICIPANT_ASSIGNMENT_COLUMNS,
];
