import type { Clock } from '../../lib/clock.js';
import { dayIn } from '../../lib/clock.js';
import { emailsDue, roundOn, type DueEmail } from './email-rules.js';
import { scheduledKey, type EmailOutboxRepository, type OutboxEntry } from './email-outbox.repository.js';
import type {
  EmailScheduleRepository,
  ParticipantCursor,
  ScheduledSeason,
  ScheduleParticipant,
  TemplateChoice,
} from './email-schedule.repository.js';

/** Participants read per page: bounds memory on a project of 100,000. */
const PAGE = 2000;

/** One email the rules pick on a day, with the template that would carry it (if any is set to send). */
export interface ScheduledPick {
  season: ScheduledSeason;
  participant: ScheduleParticipant;
  due: DueEmail;
  /** The template the rule uses; undefined when the project has none of that type for it. */
  template: TemplateChoice | undefined;
  dedupeKey: string | null;
}

/** The picks of a day (`picks`, or `sharingReads`'s over several days). */
export interface DayPicks {
  picks(day: string, projectId?: string, seasonId?: string): AsyncGenerator<ScheduledPick[]>;
}

/** What one run of picks over several days reads once (`sharingReads`). */
export interface SharedReads {
  /** Each project's templates (made first where missing). */
  templates: Map<string, Promise<TemplateChoice[]>>;
  /** A season's pages of participants with their progress in the running round, by cursor. */
  pagesOf(season: ScheduledSeason, running: number | null): Map<string, Promise<ScheduleParticipant[]>>;
}

function sharedReads(): SharedReads {
  const pages = new Map<string, { key: string; pages: Map<string, Promise<ScheduleParticipant[]>> }>();
  return {
    templates: new Map(),
    pagesOf(season, running) {
      // What a season's page reads beside the round: its start (who is returning) and summary.
      const key = `${running}|${season.startDate}|${season.summaryPostedOn}`;
      const held = pages.get(season.id);
      if (held?.key === key) return held.pages;
      const fresh = { key, pages: new Map<string, Promise<ScheduleParticipant[]>>() };
      pages.set(season.id, fresh);
      return fresh.pages;
    },
  };
}

/** Whether the schedule sends a pick itself: its email is set to go automatically (enabled, AUTOMATIC). */
export function sendsItself(
  pick: ScheduledPick,
): pick is ScheduledPick & { template: TemplateChoice; dedupeKey: string } {
  return Boolean(pick.template?.automatic && pick.dedupeKey);
}

/**
 * The round schedule: on each run it asks the rules (email-rules.ts) what is due today (in
 * the schedule's time zone) and puts it in the outbox under each email's unique key, so a
 * second run, a second process or a restart adds nothing twice. Only enabled AUTOMATIC
 * templates are queued; archived participants and projects are never read.
 */
export function createEmailScheduler(deps: {
  schedule: EmailScheduleRepository;
  outbox: Pick<EmailOutboxRepository, 'queue'>;
  /** Gives a project the templates it lacks (one made before emails existed has none yet). */
  ensureTemplates(projectId: string): Promise<void>;
  clock: Clock;
  timeZone: string;
}) {
  const today = () => dayIn(deps.timeZone, deps.clock.now());

  function templateFor(templates: TemplateChoice[], season: ScheduledSeason, due: DueEmail) {
    const seasonId = due.template === 'season' ? season.id : null;
    return templates.find((t) => t.type === due.type && t.seasonId === seasonId);
  }

  /**
   * Every pick of the rules on the day, season by season, a page of participants at a time:
   * of every project's seasons, of one project's, or of one season's.
   */
  async function* picks(
    day: string,
    projectId?: string,
    seasonId?: string,
    /** Reads shared with other days' picks (`sharingReads`); by default, a page is held only while it is used. */
    shared?: SharedReads,
  ): AsyncGenerator<ScheduledPick[]> {
    const templatesByProject = shared?.templates ?? new Map<string, Promise<TemplateChoice[]>>();
    for (const season of await deps.schedule.seasonsAbout(day, projectId)) {
      if (seasonId && season.id !== seasonId) continue;
      let templates = templatesByProject.get(season.projectId);
      if (!templates) {
        templates = deps.ensureTemplates(season.projectId).then(() => deps.schedule.templates(season.projectId));
        templatesByProject.set(season.projectId, templates);
      }
      const choices = await templates;
      const running = roundOn(season, day)?.number ?? null;
      const pages = shared?.pagesOf(season, running);
      let after: ParticipantCursor | null = null;
      for (;;) {
        const cursor: string = after ? `${after.sortName}\u0000${after.userId}` : '';
        let read: Promise<ScheduleParticipant[]> | undefined = pages?.get(cursor);
        if (!read) {
          read = deps.schedule.participants(season, running, after, PAGE);
          pages?.set(cursor, read);
        }
        const participants: ScheduleParticipant[] = await read;
        if (!participants.length) break;
        const page: ScheduledPick[] = [];
        for (const participant of participants) {
          for (const due of emailsDue(day, season, participant)) {
            const template = templateFor(choices, season, due);
            page.push({
              season,
              participant,
              due,
              template,
              dedupeKey: template
                ? scheduledKey({
                    projectId: season.projectId,
                    templateId: template.id,
                    seasonId: season.id,
                    roundNumber: due.roundNumber,
                    userId: participant.userId,
                    ruleDay: due.ruleDay,
                  })
                : null,
            });
          }
        }
        yield page;
        const last = participants[participants.length - 1]!;
        after = { sortName: last.sortName, userId: last.userId };
        if (participants.length < PAGE) break;
      }
    }
  }

  return {
    today,
    picks,

    /**
     * The rules' picks for one day after another (the season calendar: a dry run of every day
     * of a season), sharing their reads: the templates are read once, and a page of a
     * season's participants once for all the days of the same running round — it depends on
     * the round, not the day — rather than every participant read again for each day (41
     * days of 10,000 participants were 410,000 rows read for one calendar). Only the pages of
     * the round the days are in are held: the days go in order, so the next round's replace them.
     */
    sharingReads(): DayPicks {
      const shared = sharedReads();
      return { picks: (day, projectId, seasonId) => picks(day, projectId, seasonId, shared) };
    },

    /** Queues what is due today; answers how many emails were new to the outbox and how many the rules picked. */
    async run(): Promise<{ day: string; picked: number; queued: number }> {
      const day = today();
      const now = deps.clock.now();
      let picked = 0;
      let queued = 0;
      for await (const page of picks(day)) {
        const entries: OutboxEntry[] = [];
        for (const pick of page) {
          if (!sendsItself(pick)) continue;
          entries.push({
            projectId: pick.season.projectId,
            templateId: pick.template.id,
            seasonId: pick.season.id,
            roundNumber: pick.due.roundNumber,
            userId: pick.participant.userId,
            toAddress: pick.participant.email,
            kind: 'SCHEDULED',
            ruleDay: pick.due.ruleDay,
            dedupeKey: pick.dedupeKey,
          });
        }
        picked += entries.length;
        queued += await deps.outbox.queue(entries, now);
      }
      return { day, picked, queued };
    },
  };
}

export type EmailScheduler = ReturnType<typeof createEmailScheduler>;
