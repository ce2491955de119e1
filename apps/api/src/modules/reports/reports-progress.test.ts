import { describe, expect, it } from 'vitest';
import { expectError, fieldsOf } from '../../../test/kit.js';
import {
  AT,
  FORMULA_NAME,
  attachmentName,
  csvRows,
  person,
  xlsxRows,
  reportsSetup,
} from '../../../test/report-calls.js';

const { report, world } = reportsSetup();

// The world (test/report-calls.ts): Adams never starts, Baker has begun Alpha, Clark has
// completed round 1 and 2, Young (a formula for a first name) takes round 2 only; a test
// user and an archived participant are left out.

const roundHeaders = [1, 2, 3, 4].flatMap((n) => [
  `Round ${n} progress`,
  `Round ${n} cases completed`,
  `Round ${n} cases assigned`,
  `Round ${n} average score`,
]);
const progressHeader = [
  'Last name',
  'First name',
  'Email',
  'User ID',
  'Profession',
  'Season',
  'Rounds assigned',
  'Start date',
  ...roundHeaders,
  'Cases assigned',
  'Cases completed',
  'Overall progress',
  'Average score',
  'Last activity (UTC)',
];
const spring = ['Spring 2026', '1-4', '2026-01-01'];
const roundThreeAndFour = ['Not open yet', '0', '1', '', 'No cases', '0', '0', ''];
const notAssigned = ['Not assigned', '', '', ''];

const adams = () => [
  ...person(world.never),
  ...spring,
  ...['Not started', '0', '2', '', 'Not started', '0', '1', ''],
  ...roundThreeAndFour,
  ...['4', '0', 'Not started', '', ''],
];
const baker = () => [
  ...person(world.starter),
  ...spring,
  ...['In progress', '0', '2', '', 'Not started', '0', '1', ''],
  ...roundThreeAndFour,
  ...['4', '0', 'In progress', '', AT],
];
const clark = () => [
  ...person(world.finisher),
  ...spring,
  ...['Complete', '2', '2', '75', 'Complete', '1', '1', '100'],
  ...roundThreeAndFour,
  ...['4', '3', 'In progress', '83.3', AT],
];
/** The formula in the first name and the user ID `+cmd` come back neutralised. */
const young = () => [
  'Young',
  `'${FORMULA_NAME}`,
  world.formula.email,
  "'+cmd",
  '',
  'Spring 2026',
  '2',
  '2026-01-01',
  ...notAssigned,
  ...['Complete', '1', '1', '50'],
  ...notAssigned,
  ...notAssigned,
  ...['1', '1', 'Complete', '50', AT],
];

describe('participants progress', () => {
  it('has a row per participant and season, test users and archived participants left out, the same in XLSX', async () => {
    const csv = await report('participants-progress');
    expect(csvRows(csv)).toEqual([progressHeader, adams(), baker(), clark(), young()]);
    expect(attachmentName(csv)).toBe('Cardio-Pilot-participants-progress-2026-03-20.csv');
    const xlsx = await report('participants-progress', { format: 'xlsx' });
    expect(await xlsxRows(xlsx)).toEqual(csvRows(csv));
    expect(attachmentName(xlsx)).toBe('Cardio-Pilot-participants-progress-2026-03-20.xlsx');
  });

  it('narrows to a season named regardless of case, and says it in the file name', async () => {
    const csv = await report('participants-progress', { seasonName: 'spring 2026' });
    expect(csvRows(csv)).toEqual([progressHeader, adams(), baker(), clark(), young()]);
    expect(attachmentName(csv)).toBe('Cardio-Pilot-Spring-2026-participants-progress-2026-03-20.csv');
  });

  it('finds participants by name or email', async () => {
    expect(csvRows(await report('participants-progress', { search: 'clark' }))).toEqual([progressHeader, clark()]);
    const byEmail = await report('participants-progress', { search: world.never.email.toUpperCase() });
    expect(csvRows(byEmail)).toEqual([progressHeader, adams()]);
  });

  it('takes an optional filter', async () => {
    const inProgress = await report('participants-progress', { filter: JSON.stringify({ progress: 'IN_PROGRESS' }) });
    expect(csvRows(inProgress)).toEqual([progressHeader, baker(), clark()]);
  });
});

describe('participants progress subset', () => {
  const subset = (filter: object, query: Record<string, string> = {}) =>
    report('participants-progress-subset', { filter: JSON.stringify(filter), ...query });

  it('keeps the rows whose progress is the filter’s, in CSV and XLSX', async () => {
    const csv = await subset({ progress: 'COMPLETE' });
    expect(csvRows(csv)).toEqual([progressHeader, young()]);
    expect(attachmentName(csv)).toBe('Cardio-Pilot-participants-progress-subset-2026-03-20.csv');
    expect(await xlsxRows(await subset({ progress: 'COMPLETE' }, { format: 'xlsx' }))).toEqual(csvRows(csv));
    expect(csvRows(await subset({ progress: 'NOT_STARTED' }))).toEqual([progressHeader, adams()]);
  });

  it('judges a round’s progress, of the participants assigned to it', async () => {
    expect(csvRows(await subset({ round_number: 1, progress: 'NOT_STARTED' }))).toEqual([progressHeader, adams()]);
    expect(csvRows(await subset({ round_number: 1, progress: 'COMPLETE' }))).toEqual([progressHeader, clark()]);
    expect(csvRows(await subset({ round_number: 2, progress: 'COMPLETE' }))).toEqual([
      progressHeader,
      clark(),
      young(),
    ]);
    expect(csvRows(await subset({ round_number: 3 }))).toEqual([progressHeader, adams(), baker(), clark()]);
  });

  it('refuses a missing, empty or malformed filter, changing nothing', async () => {
    const missing = await report('participants-progress-subset');
    expectError(missing, 400, 'REQUIRED_PARAMETER_MISSING');
    expect(fieldsOf(missing)).toEqual(['querystring.filter']);
    expect(missing.headers['content-disposition']).toBeUndefined();
    expectError(await subset({}), 400, 'VALIDATION_ERROR');
    expectError(await subset({ progress: 'DONE' }), 400, 'VALIDATION_ERROR');
    expectError(await subset({ round_number: 5 }), 400, 'VALIDATION_ERROR');
    expectError(await subset({ archived: true }), 400, 'VALIDATION_ERROR');
    expectError(await report('participants-progress-subset', { filter: '{"progress":' }), 400, 'VALIDATION_ERROR');
  });
});

describe('project progress', () => {
  const header = [
    'Season',
    'Round',
    'Round starts',
    'Round ends',
    'Case',
    'Participants assigned',
    'Started (incl. completed)',
    'Completed',
    'Completion rate (%)',
    'Average score',
  ];
  const roundOne = ['Spring 2026', '1', '2026-03-01', '2026-03-14'];
  const alpha = [...roundOne, 'Alpha chest pain', '3', '2', '1', '33.3', '100'];
  const beta = [...roundOne, 'Beta fever', '3', '1', '1', '33.3', '50'];
  const gamma = ['Spring 2026', '2', '2026-03-15', '2026-03-28', 'Gamma cough', '4', '2', '2', '50', '75'];
  const delta = ['Spring 2026', '3', '2026-03-29', '2026-04-11', 'Delta headache', '3', '0', '0', '0', ''];

  it('has a row per case and round, counting only the participants reported on, the same in XLSX', async () => {
    const csv = await report('project-progress');
    expect(csvRows(csv)).toEqual([header, alpha, beta, gamma, delta]);
    expect(attachmentName(csv)).toBe('Cardio-Pilot-project-progress-2026-03-20.csv');
    expect(await xlsxRows(await report('project-progress', { format: 'xlsx' }))).toEqual(csvRows(csv));
  });

  it('narrows to a season and a round', async () => {
    const filter = JSON.stringify({ season_name: 'Spring 2026', round_number: 1 });
    expect(csvRows(await report('project-progress', { filter }))).toEqual([header, alpha, beta]);
    const unknown = await report('project-progress', { filter: JSON.stringify({ season_name: 'Winter 2031' }) });
    expectError(unknown, 400, 'VALIDATION_ERROR');
    expect(fieldsOf(unknown)).toEqual(['querystring.filter.season_name']);
  });
});
