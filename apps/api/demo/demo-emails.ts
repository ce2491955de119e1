import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../src/db/client.js';
import { ensureEmailTemplates } from '../src/db/email-templates.js';
import {
  cases,
  participantAssignments,
  rounds,
  seasonSummaries,
  seasons,
  users,
  userSeasonRoundCases,
} from '../src/db/schema/index.js';
import {
  createEmailOutboxRepository,
  scheduledKey,
  type OutboxEntry,
} from '../src/modules/emails/email-outbox.repository.js';
import { addDays, emailsDue, roundOn, type SeasonFacts } from '../src/modules/emails/email-rules.js';
import { createEmailScheduleRepository } from '../src/modules/emails/email-schedule.repository.js';

/**
 * The delivery log of the running demo project's past, as the round schedule would have
 * sent it: for every day from each season's start until yesterday, the schedule's rules
 * (`emailsDue`) are asked about every participant with their progress as it stood that
 * morning, and what they pick is queued under the schedule's own keys and marked sent by
 * the outbox's own calls, at the schedule's first run of that day. Today's emails are left
 * to the running app (without SMTP_URL it notes them "not sent: no mail server"), and the
 * same keys make sure it never sends one of these again.
 *
 * Days are counted in UTC, the schedule's default time zone (SCHEDULE_TIME_ZONE).
 */
export async function seedDemoEmailHistory(db: Db, projectId: string, today: Date): Promise<number> {
  await ensureEmailTemplates(db, projectId);
  const templates = await createEmailScheduleRepository(db, 'UTC').templates(projectId);
  const outbox = createEmailOutboxRepository(db);
  const todayIso = today.toISOString().slice(0, 10);

  const projectSeasons = await db.select().from(seasons).where(eq(seasons.projectId, projectId));
  const seasonIds = projectSeasons.map((s) => s.id);
  if (!seasonIds.length) return 0;
  const [roundRows, caseRows, assignments, attempts, summaries] = await Promise.all([
    db.select().from(rounds).where(inArray(rounds.seasonId, seasonIds)),
    db
      .select({ seasonId: cases.seasonId, round: cases.roundNumber })
      .from(cases)
      .where(and(inArray(cases.seasonId, seasonIds), eq(cases.status, 'PUBLISHED'))),
    db
      .select({ a: participantAssignments, email: users.email })
      .from(participantAssignments)
      .innerJoin(users, eq(users.id, participantAssignments.userId))
      .where(eq(participantAssignments.projectId, projectId)),
    // Made by the attempts' sync before this runs (the surveys' seeding runs it).
    db.select().from(userSeasonRoundCases).where(eq(userSeasonRoundCases.projectId, projectId)),
    db
      .select({ seasonId: seasonSummaries.seasonId, postedAt: seasonSummaries.postedAt })
      .from(seasonSummaries)
      .where(and(eq(seasonSummaries.projectId, projectId), eq(seasonSummaries.status, 'POSTED'))),
  ]);
  const startOf = new Map(projectSeasons.map((s) => [s.id, s.startDate]));

  let sent = 0;
  for (const season of projectSeasons) {
    if (!season.startDate || !season.endDate) continue;
    const posted = summaries.find((s) => s.seasonId === season.id)?.postedAt;
    const facts: SeasonFacts = {
      id: season.id,
      name: season.name,
      rounds: roundRows
        .filter((r) => r.seasonId === season.id)
        .map((r) => ({ number: r.number, startDate: r.startDate, endDate: r.endDate })),
      casesByRound: {},
      summaryPostedOn: posted ? posted.toISOString().slice(0, 10) : null,
    };
    for (const c of caseRows.filter((x) => x.seasonId === season.id && x.round !== null)) {
      facts.casesByRound[c.round!] = (facts.casesByRound[c.round!] ?? 0) + 1;
    }
    const inSeason = assignments.filter((x) => x.a.seasonId === season.id);
    for (let day = season.startDate; day < todayIso; day = addDays(day, 1)) {
      const morning = new Date(`${day}T00:00:00Z`);
      const running = roundOn(facts, day)?.number;
      const entries: OutboxEntry[] = [];
      for (const { a, email } of inSeason) {
        const theirs = attempts.filter((x) => x.userId === a.userId && x.seasonId === season.id);
        const done = theirs.filter((x) => x.status === 'COMPLETE' && x.submittedAt && x.submittedAt < morning);
        const due = emailsDue(day, facts, {
          userId: a.userId,
          startDate: a.startDate,
          firstRound: a.firstRound,
          lastRound: a.lastRound,
          returning: assignments.some(
            (other) => other.a.userId === a.userId && (startOf.get(other.a.seasonId) ?? '') < season.startDate!,
          ),
          completedInRound: done.filter((x) => x.roundNumber === running).length,
          completedSeason: theirs.length > 0 && done.length === theirs.length,
          // Nobody of the demo had signed in since.
          lastSeenOn: null,
        });
        for (const email_ of due) {
          const template = templates.find(
            (t) => t.type === email_.type && t.seasonId === (email_.template === 'season' ? season.id : null),
          );
          if (!template?.automatic) continue;
          const key = { projectId, templateId: template.id, seasonId: season.id, roundNumber: email_.roundNumber };
          const dedupeKey = scheduledKey({ ...key, userId: a.userId, ruleDay: email_.ruleDay });
          entries.push({
            ...key,
            userId: a.userId,
            toAddress: email,
            kind: 'SCHEDULED',
            ruleDay: email_.ruleDay,
            dedupeKey,
          });
        }
      }
      if (!entries.length) continue;
      // The schedule's first run that day queues them; the sender takes and sends them a moment later.
      const queuedAt = new Date(morning.getTime() + 60_000);
      await outbox.queue(entries, queuedAt);
      const sentAt = new Date(queuedAt.getTime() + 20_000);
      for (const claim of await outbox.claim(sentAt, new Date(sentAt.getTime() + 120_000), entries.length)) {
        if (await outbox.markSent(claim.id, claim.claimedAt, sentAt)) sent += 1;
      }
    }
  }
  return sent;
}
