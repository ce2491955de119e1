import { clientListQuery, participantListQuery } from '@pss/contract';
import type { Db } from '../apps/api/src/db/client.js';
import { createClientsRepository } from '../apps/api/src/modules/clients/clients.repository.js';
import { createParticipantsRepository } from '../apps/api/src/modules/participants/participants.repository.js';
import type { BenchFixture } from './seed.js';

export interface Scenario {
  name: string;
  path: string | ((f: BenchFixture) => string);
  auth: boolean;
  /**
   * The repository call that reads the same page, whose SQL the floor server replays
   * (bench/floor.ts); on PostgreSQL only, where the harness can share the database.
   */
  floor?: (db: Db, f: BenchFixture) => Promise<unknown>;
}

/** The query string of a scenario's path, as the app's list schema reads it (the origin plays no part). */
const queryOf = (target: string) => Object.fromEntries(new URL(target, 'http://127.0.0.1').searchParams);

/** A clients list page through the clients repository, as `GET /api/clients` reads it. */
const clientsFloor =
  (target: string | ((f: BenchFixture) => string)) =>
  (db: Db, f: BenchFixture): Promise<unknown> =>
    createClientsRepository(db).list(
      clientListQuery.parse(queryOf(typeof target === 'string' ? target : target(f))),
      null,
    );

function withClientsFloor(scenario: Scenario): Scenario {
  return { ...scenario, floor: clientsFloor(scenario.path) };
}

const participantRepositories = new WeakMap<Db, ReturnType<typeof createParticipantsRepository>>();

/**
 * A participants list page through the participants repository: the project's head (its
 * client for the access check, its kept counts: the total of an unsearched list), then the
 * page, as `GET /api/projects/{id}/users` reads it.
 */
const participantsFloor =
  (projectId: string, target: string) =>
  async (db: Db): Promise<unknown> => {
    // One repository per database, so that its page marks (an in-process cache) are warm
    // when the second call is captured, as they are in the running app.
    let participants = participantRepositories.get(db);
    if (!participants) {
      participants = createParticipantsRepository(db);
      participantRepositories.set(db, participants);
    }
    const query = participantListQuery.parse(queryOf(target));
    const head = await participants.listHead(projectId);
    if (!head) throw new Error(`no project ${projectId}`);
    let kept: number | null = null;
    if (!query.search && !query.filter.progress && !query.filter.data_status) {
      kept = query.filter.archived ? head.archived : head.active;
    }
    return participants.list(projectId, query, head, kept);
  };

/** The calls measured. Later features add theirs here. */
export const scenarios: Scenario[] = [
  { name: 'health', path: '/api/health', auth: false },
  { name: 'users/me', path: '/api/users/me', auth: true },
  withClientsFloor({ name: 'clients page 1', path: '/api/clients?limit=25', auth: true }),
  withClientsFloor({ name: 'clients sorted by name', path: '/api/clients?limit=25&sort=name:ASC', auth: true }),
  withClientsFloor({ name: 'clients search', path: '/api/clients?limit=25&search=health', auth: true }),
  withClientsFloor({
    name: 'clients deep page',
    path: (f) => `/api/clients?limit=25&page=${Math.max(1, Math.floor(f.clients / 25) - 1)}`,
    auth: true,
  }),
  { name: 'client by id', path: (f) => `/api/clients/${f.sampleClientId}`, auth: true },
  { name: 'clients p2 sorted+search', path: '/api/clients?page=2&limit=10&sort=name:ASC&search=care', auth: true },
  { name: 'projects page 1', path: '/api/projects?limit=25', auth: true },
  { name: 'projects search', path: '/api/projects?limit=25&search=sepsis&sort=name:ASC', auth: true },
  {
    name: 'projects archived',
    path: `/api/projects?limit=25&filter=${encodeURIComponent('{"status":"ARCHIVED"}')}`,
    auth: true,
  },
  { name: "a client's projects", path: (f) => `/api/clients/${f.sampleClientId}/projects`, auth: true },
  { name: 'project by id', path: (f) => `/api/projects/${f.sampleProjectId}`, auth: true },
  { name: 'active seasons', path: '/api/clients/active-seasons?limit=25', auth: true },
  { name: 'CMEs of a project', path: (f) => `/api/cmes/${f.sampleProjectId}`, auth: true },
];

/**
 * The calls the Progress Dashboard makes as it opens, for every tile, both charts, the case
 * table and the categories; `before` names each one's route on the reference server
 * (bench/reference-statistics-server.ts).
 */
export function dashboardCalls(projectId: string, seasonName: string): (Scenario & { before: string })[] {
  const base = `/api/statistics/${projectId}`;
  const season = `seasonName=${encodeURIComponent(seasonName)}`;
  const call = (name: string, path: string, before: string) => ({ name, path, auth: true, before });
  return [
    call('statistics participation', `${base}/overal-participation-rate?${season}`, '/before/participation'),
    call(
      'statistics completion cases',
      `${base}/overal-completion-rate?${season}&type=CASES`,
      '/before/completion-cases',
    ),
    call(
      'statistics completion people',
      `${base}/overal-completion-rate?${season}&type=PARTICIPANTS`,
      '/before/completion-people',
    ),
    call('statistics by round', `${base}/participation-completion-by-round?${season}`, '/before/by-round'),
    call('statistics case completion', `${base}/case-completion?${season}`, '/before/case-completion'),
    call('statistics by day', `${base}/completions-by-day?${season}`, '/before/by-day'),
    call('statistics categories', `${base}/question-categories?${season}`, '/before/categories'),
  ];
}

/** Every statistics call of the Progress Dashboard, on the seeded project's season. */
export function statisticsScenarios(projectId: string, seasonName: string): Scenario[] {
  const base = `/api/statistics/${projectId}`;
  const season = `seasonName=${encodeURIComponent(seasonName)}`;
  return [
    ...dashboardCalls(projectId, seasonName).map(({ before: _, ...scenario }) => scenario),
    { name: 'statistics participants p1', path: `${base}/participants?${season}&limit=25`, auth: true },
    { name: 'statistics participants p2000', path: `${base}/participants?${season}&limit=25&page=2000`, auth: true },
    {
      name: 'statistics participants find',
      path: `${base}/participants?${season}&limit=25&search=last0001234`,
      auth: true,
    },
    { name: 'statistics connected', path: `${base}/client-connected-accounts?limit=25`, auth: true },
  ];
}

/** The participants list of the imported project: first and deep pages, sorted, searched, filtered. */
export function participantListScenarios(projectId: string, participantCount: number): Scenario[] {
  const f = `/api/projects/${projectId}/users`;
  const deepPage = Math.floor(participantCount / 25 / 2);
  const listed = (name: string, target: string): Scenario => ({
    name,
    path: target,
    auth: true,
    floor: participantsFloor(projectId, target),
  });
  return [
    listed('participants page 1', `${f}?limit=25`),
    listed(`participants page ${deepPage}`, `${f}?limit=25&page=${deepPage}`),
    listed('participants by email', `${f}?limit=25&sort=email:DESC`),
    listed('participants search', `${f}?limit=25&search=last123`),
    {
      name: 'participants not ready',
      path: `${f}?limit=25&filter=${encodeURIComponent('{"data_status":"NOT_READY"}')}`,
      auth: true,
    },
    {
      name: 'participants archived',
      path: `${f}?limit=25&filter=${encodeURIComponent('{"archived":true}')}`,
      auth: true,
    },
  ];
}
