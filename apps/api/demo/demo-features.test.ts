import path from 'node:path';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type {
  Certificate,
  Dashboard,
  ItemAnalysisRow,
  EmailDelivery,
  EmailSchedule,
  Paged,
  Participant,
  ParticipantCertificate,
  ProjectSummary,
  ProjectSurvey,
  Resource,
} from '@pss/contract';
import { itemFlags, negativeDiscriminationLimit } from '@pss/contract';
import { certificates, projects, surveyResponses, users } from '../src/db/schema/index.js';
import { localFileStorage } from '../src/lib/storage.js';
import { createTokenService } from '../src/lib/tokens.js';
import { testContext } from '../test/kit.js';
import { bearerFor, createUser } from '../test/test-app.js';
import { seedDemoContent } from './demo-content.js';
import { DEMO_MID_SEASON, DEMO_NEW_PARTICIPANT } from './demo-participants.js';
import { DEMO_PILOT_PARTICIPANTS } from './demo-pilot.js';
import { DEMO_WINTER_COMPLETER } from './demo-results.js';
import { DEMO_SUMMARY_POSTED_DAYS_AGO, DEMO_SUMMARY_TITLE } from './demo-summary.js';

const ctx = testContext();
let staff: { authorization: string };
let projectId: string;
let completer: string;

beforeAll(async () => {
  // The same files folder the app serves and draws thumbnails from.
  await seedDemoContent(ctx.db, ctx.clock.now(), localFileStorage(path.join(ctx.config.dataDir, 'files')));
  staff = await bearerFor(ctx.app, await createUser(ctx.db, { role: 'SUPERADMIN' }));
  const [row] = await ctx.db.select().from(projects).where(eq(projects.name, 'Heart Failure Management 2026'));
  projectId = row!.id;
  const [james] = await ctx.db.select().from(users).where(eq(users.email, DEMO_WINTER_COMPLETER));
  completer = james!.id;
});

const get = async <T>(url: string, headers = staff) => {
  const response = await ctx.app.inject({ method: 'GET', url: `/api${url}`, headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<T>();
};

/** A participant's bearer header, through a dashboard link as the printed demo link signs them in. */
async function participant(email: string) {
  const [user] = await ctx.db.select().from(users).where(eq(users.email, email));
  const tokens = createTokenService(ctx.config.sessionSecret, ctx.config.accessTokenTtlSeconds);
  const token = await tokens.signLinkToken(user!.id, ctx.clock.now(), 1);
  const response = await ctx.app.inject({ method: 'POST', url: '/api/auth/login/halfuser', payload: { token } });
  expect(response.statusCode).toBe(200);
  return { authorization: `Bearer ${response.json<{ access_token: string }>().access_token}` };
}

const daysAgo = (n: number) => new Date(ctx.clock.now().getTime() - n * 86_400_000).toISOString().slice(0, 10);

describe('the demo shows every feature', () => {
  it('has survey templates of all four types, complete, chosen for the running project and answered', async () => {
    const templates =
      await get<
        Paged<{ type: string; page_count: number; question_count: number; answered: boolean; project_count: number }>
      >('/survey-templates');
    expect(templates.items.map((t) => t.type).sort()).toEqual(['END', 'REVIEW', 'START_NEW', 'START_RETURNING']);
    for (const t of templates.items) {
      expect(t.page_count).toBeGreaterThan(0);
      expect(t.question_count).toBeGreaterThan(0);
      expect(t).toMatchObject({ answered: true, project_count: 1 });
    }
    const chosen = await get<ProjectSurvey>(`/projects/${projectId}/survey`);
    expect(chosen.templates).toHaveLength(4);
    const answered = await ctx.db.select().from(surveyResponses).where(eq(surveyResponses.projectId, projectId));
    expect(new Set(answered.filter((r) => r.completedAt).map((r) => r.templateType)).size).toBe(4);
  });

  it('has resources of every kind in the library, attached to cases, whose files get thumbnails and facts', async () => {
    await ctx.app.resources.runPending();
    const library = await get<Paged<Resource>>('/resource-library?limit=50');
    expect(new Set(library.items.map((r) => r.source_type))).toEqual(new Set(['PDF', 'IMAGE', 'VIDEO', 'URL', 'TEXT']));
    expect(library.items.filter((r) => r.attachment_status === 'ATTACHED_ACTIVE').length).toBeGreaterThanOrEqual(4);
    const byType = (type: string) => library.items.find((r) => r.source_type === type)!.file!;
    expect(byType('PDF')).toMatchObject({ thumbnail_status: 'READY', page_count: 1 });
    expect(byType('IMAGE')).toMatchObject({ thumbnail_status: 'READY', width: 640, height: 200 });
    expect(byType('VIDEO').duration_seconds).toBe(4);
  });

  it('has a delivery log of the emails the schedule sent so far, each one the schedule picks for its day', async () => {
    const log = await get<Paged<EmailDelivery>>(`/projects/${projectId}/email-deliveries?limit=100`);
    expect(log.total).toBeGreaterThan(20);
    expect(log.total).toBeLessThanOrEqual(100); // one page holds it all
    expect(log.items.every((d) => d.status === 'SENT' && d.sent_at?.startsWith(d.queued_at.slice(0, 10)))).toBe(true);
    // A certificate's email goes when it is issued, today too (one holder completed their second case today).
    expect(
      log.items.every(
        (d) =>
          d.scheduled_for < daysAgo(0) || (d.email_type === 'certificate_issued' && d.scheduled_for === daysAgo(0)),
      ),
    ).toBe(true);
    // Every day of the running season so far, the schedule's dry run (progress as it stands
    // now, so only fewer reminders than then) finds each email it picks already in the log;
    // on the season's first day (launch emails, whatever the progress) it picks exactly the log's.
    for (let n = 20; n >= 1; n--) {
      const schedule = await get<EmailSchedule>(`/projects/${projectId}/email-schedule?date=${daysAgo(n)}&limit=100`);
      expect(schedule.items.filter((item) => !item.already_queued)).toEqual([]);
      if (n === 20) {
        const launched = log.items.filter((d) => d.scheduled_for === daysAgo(20));
        expect(launched.map((d) => `${d.participant!.id}:${d.email_type}`).sort()).toEqual(
          schedule.items.map((s) => `${s.participant.id}:${s.email_type}`).sort(),
        );
        expect(launched.length).toBe(9);
      }
    }
    // The Winter Season's Results Summary went to the participant who completed it on the day it was posted.
    const summaries = log.items.filter((d) => d.email_type === 'summary_launch');
    expect(summaries.map((d) => [d.participant!.id === completer, d.scheduled_for])).toEqual([
      [true, daysAgo(DEMO_SUMMARY_POSTED_DAYS_AGO)],
    ]);
  });

  it('shows each demo participant’s moment on their dashboard', async () => {
    const projectOf = async (email: string) => {
      const headers = await participant(email);
      const dashboard = await get<Dashboard>('/dashboard', headers);
      return { headers, mine: dashboard.projects.find((p) => p.project_id === projectId)! };
    };
    // Mid-season: cases to do, and the start survey already answered.
    const mid = await projectOf(DEMO_MID_SEASON);
    expect(mid.mine.pending_case_count).toBe(2);
    const due = await get<{ start: unknown }>(`/users/${mid.mine.next_case!.id}/surveys`, mid.headers);
    expect(due.start).toBeNull();
    // The season completed: its posted summary and the CME credit it earned.
    const done = await projectOf(DEMO_WINTER_COMPLETER);
    expect(done.mine.season_summaries.map((s) => s.title)).toEqual([DEMO_SUMMARY_TITLE]);
    expect(done.mine.season_summaries[0]!.sheet?.file_name).toBe('winter-results.pdf');
    expect(done.mine.cmes.some((c) => c.completed_cases >= c.min_cases)).toBe(true);
    // New today: the running round's case, with the start survey before it.
    const fresh = await projectOf(DEMO_NEW_PARTICIPANT);
    expect(fresh.mine.cases.every((c) => c.status === 'NOT_STARTED')).toBe(true);
    expect(fresh.mine.next_case?.unlocks_on).toBe(daysAgo(0));
    const first = await get<{ start: { type: string } | null }>(
      `/users/${fresh.mine.next_case!.id}/surveys`,
      fresh.headers,
    );
    expect(first.start?.type).toBe('START_NEW');
    expect(fresh.mine.key_takeaways).toEqual([]);
    expect(done.mine.key_takeaways.length).toBeGreaterThan(0);
  });

  it('holds the CME certificates of those who completed two cases, one of them the printed Winter completer', async () => {
    const page = await get<Paged<Certificate>>(`/projects/${projectId}/certificates?sort=participant_name:ASC`);
    expect(page.items.map((c) => [c.participant_name, c.course_id, c.revoked_at])).toEqual([
      ['Chloé Dubois', 'HF-2026-W', null],
      ['James Chen', 'HF-2026-W', null],
      ['Tom Becker', 'HF-2026-W', null],
    ]);
    const mine = await get<{ items: ParticipantCertificate[] }>(
      '/participant/certificates',
      await participant(DEMO_WINTER_COMPLETER),
    );
    expect(mine.items.map((c) => c.code)).toEqual([page.items[1]!.code]);
    // Each is dated on or after every completion it lists, and lists at least its minimum (issue #48).
    const rows = await ctx.db.select().from(certificates).where(eq(certificates.projectId, projectId));
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.cases.length, row.participantName).toBeGreaterThanOrEqual(row.minCases);
      for (const listed of row.cases) {
        expect(
          new Date(listed.submitted_at).getTime(),
          `${row.participantName}: ${listed.case_name}`,
        ).toBeLessThanOrEqual(row.issuedAt.getTime());
      }
    }
  });

  it('counts every project’s participants as its Participants tab lists them, the archived pilot too', async () => {
    const { items: all } = await get<Paged<ProjectSummary>>('/projects?limit=200');
    expect(all.map((p) => p.name)).toContain('Asthma Pilot 2025');
    for (const summary of all) {
      const listed = async (archived: boolean) => {
        const filter = encodeURIComponent(JSON.stringify({ archived }));
        return (await get<Paged<Participant>>(`/projects/${summary.id}/users?limit=200&filter=${filter}`)).items;
      };
      const active = await listed(false);
      const counts = {
        active: active.length,
        archived: (await listed(true)).length,
        not_ready: active.filter((p) => p.data_status === 'NOT_READY').length,
      };
      const status = counts.active === 0 ? 'NO_USERS' : counts.not_ready > 0 ? 'NOT_READY' : 'READY';
      // The overview, and the client's list of projects, say what the tab lists.
      const project = await get<ProjectSummary>(`/projects/${summary.id}`);
      expect({ name: project.name, counts: project.participant_counts, status: project.data_status }).toEqual({
        name: summary.name,
        counts,
        status,
      });
      const { items: ofClient } = await get<Paged<ProjectSummary>>(`/clients/${summary.client_id}/projects?limit=200`);
      const inList = ofClient.find((p) => p.id === summary.id)!;
      expect([inList.participant_counts, inList.data_status]).toEqual([counts, status]);
    }
    const [pilot] = all.filter((p) => p.name === 'Asthma Pilot 2025');
    expect(pilot!.status).toBe('ARCHIVED');
    expect(pilot!.participant_counts.active).toBe(DEMO_PILOT_PARTICIPANTS);
  });

  it('has an archived pilot whose item analysis shows every figure and every flag', async () => {
    const [pilot] = await ctx.db.select().from(projects).where(eq(projects.name, 'Asthma Pilot 2025'));
    const { items } = await get<{ items: ItemAnalysisRow[] }>(
      `/statistics/${pilot!.id}/item-analysis?seasonName=Pilot%20Season`,
    );
    const questions = items.filter((r) => r.choice_id === null);
    expect(questions.map((q) => q.attempts)).toEqual(Array(6).fill(DEMO_PILOT_PARTICIPANTS));
    expect(questions.every((q) => q.discrimination !== null)).toBe(true);
    expect(questions.some((q) => q.discrimination! > 0.3)).toBe(true);
    expect([...new Set(items.flatMap((r) => r.flags))].sort()).toEqual([...itemFlags].sort());
    // Negative discrimination only where the evidence holds (issue #48): at 20 attempts
    // r ≤ −0.43; a question a little below 0 is not flagged.
    const negative = questions.filter((q) => q.flags.includes('NEGATIVE_DISCRIMINATION'));
    expect(negative.map((q) => q.question_text)).toEqual(['What do you add first?']);
    expect(negative[0]!.discrimination).toBeLessThanOrEqual(negativeDiscriminationLimit(DEMO_PILOT_PARTICIPANTS)!);
    expect(questions.some((q) => q.discrimination! < 0 && !q.flags.includes('NEGATIVE_DISCRIMINATION'))).toBe(true);
  });
});
