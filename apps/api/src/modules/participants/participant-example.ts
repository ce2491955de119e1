import { PARTICIPANT_ALL_COLUMNS } from './participant-rows.js';

/** The example import file's rows, by column (a column a row does not name is empty). */
const EXAMPLE_ROWS: Partial<Record<(typeof PARTICIPANT_ALL_COLUMNS)[number], string>>[] = [
  {
    user_id: 'E-1001',
    salutation: 'Dr.',
    first_name: 'Ana',
    last_name: 'García',
    email: 'ana.garcia@example.org',
    role: 'USER',
    profession: 'MD',
    mobile_number: '+1 555 0100',
    npi: '1234567890',
    practice_number: 'P-77',
    facility: 'Northwind Cardiology',
    specialty: 'Cardiology',
    manager_first_name: 'Lee',
    manager_last_name: 'Park',
    manager_email: 'lee.park@example.org',
    user_type: 'Attending',
    season: 'Spring Season',
    rounds: '1-4',
  },
  {
    user_id: 'E-1002',
    salutation: 'Mr.',
    first_name: 'Ben',
    last_name: "O'Neill, Jr.",
    email: 'ben.oneill@example.org',
    role: 'HALFUSER',
    profession: 'AS',
    season: 'Spring Season',
    rounds: '2-3',
  },
];

const quoted = (value: string) => (/[",]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

/** The example import file offered for download. */
export const PARTICIPANT_EXAMPLE_CSV =
  [
    PARTICIPANT_ALL_COLUMNS.join(','),
    ...EXAMPLE_ROWS.map((row) => PARTICIPANT_ALL_COLUMNS.map((column) => quoted(row[column] ?? '')).join(',')),
  ].join('\r\n') + '\r\n';
