import type { EmailSchedule, ScheduledEmail } from '@pss/contract';
import type { Db } from '../../db/client.js';
import { emailName } from '../../db/email-templates.js';
import type { EmailOutboxRepository } from './email-outbox.repository.js';
import { certificateValues, longDate, type PlaceholderValues } from './email-render.js';
import { sendsItself, type EmailScheduler, type ScheduledPick } from './email-scheduler.js';
import { effectiveSupport, projectSupport, type SupportContact } from './email-support.js';
import { emptyPlaceholderWarnings } from './email-warnings.js';
import { createEmailsRepository } from './emails.repository.js';

type Warning = EmailSchedule['warnings'][number];

/**
 * The dry run: who the schedule would email on the day and why, a page of it, with the
 * count of each email and, for each email going that day, the placeholders that would come
 * out empty in it. Progress is as it stands now; nothing is queued by asking.
 */
export async function dryRun(
  deps: {
    db: Db;
    scheduler: Pick<EmailScheduler, 'picks'>;
    outbox: Pick<EmailOutboxRepository, 'existingKeys'>;
    support: SupportContact;
  },
  projectId: string,
  query: { date: string; page: number; limit: number },
): Promise<EmailSchedule> {
  const from = (query.page - 1) * query.limit;
  const items: (ScheduledEmail & { key: string })[] = [];
  const counts = new Map<ScheduledEmail['email_type'], number>();
  // One of each email and round (a summary email names none): what its warnings depend on.
  const kinds = new Map<string, ScheduledPick & { template: { id: string } }>();
  let total = 0;
  for await (const page of deps.scheduler.picks(query.date, projectId)) {
    for (const pick of page) {
      if (!sendsItself(pick)) continue;
      counts.set(pick.due.type, (counts.get(pick.due.type) ?? 0) + 1);
      const kind = `${pick.template.id}:${pick.season.id}:${pick.due.roundNumber ?? ''}`;
      if (!kinds.has(kind)) kinds.set(kind, pick);
      if (total >= from && items.length < query.limit) {
        items.push({
          key: pick.dedupeKey,
          participant: {
            id: pick.participant.userId,
            first_name: pick.participant.firstName,
            last_name: pick.participant.lastName,
            email: pick.participant.email,
          },
          email_id: pick.template.id,
          email_type: pick.due.type,
          email_name: emailName(pick.due.type),
          season_name: pick.season.name,
          round_number: pick.due.roundNumber,
          reason: pick.due.reason,
          already_queued: false,
        });
      }
      total += 1;
    }
  }
  const queued = await deps.outbox.existingKeys(items.map((i) => i.key));
  return {
    date: query.date,
    items: items.map(({ key, ...item }) => ({ ...item, already_queued: queued.has(key) })),
    total,
    page: query.page,
    limit: query.limit,
    counts: [...counts].map(([type, count]) => ({ email_type: type, email_name: emailName(type), count })),
    warnings: kinds.size ? await warningsOf(deps, projectId, [...kinds.values()]) : [],
  };
}

/** The empty placeholders of each email going that day, as the sender would fill it (the participant's own aside). */
async function warningsOf(
  deps: { db: Db; support: SupportContact },
  projectId: string,
  picks: (ScheduledPick & { template: { id: string } })[],
): Promise<Warning[]> {
  const emails = createEmailsRepository(deps.db);
  const support = effectiveSupport(await projectSupport(deps.db, projectId), deps.support);
  const seen = new Set<string>();
  const warnings: Warning[] = [];
  for (const pick of picks) {
    const template = await emails.findById(pick.template.id);
    if (!template) continue;
    const round = pick.season.rounds.find((r) => r.number === pick.due.roundNumber);
    const values: PlaceholderValues = {
      // A participant's own details vary; the dry run warns of what is the same for everyone.
      first_name: '-',
      last_name: '-',
      salutation: '-',
      dashboard_link: '-',
      project_name: '-',
      season_name: pick.season.name,
      round_number: pick.due.roundNumber === null ? '' : String(pick.due.roundNumber),
      round_end_date: round ? longDate(round.endDate) : '',
      ...support,
      // No rule sends the Certificate Email, so nothing the dry run lists names a certificate.
      ...certificateValues('', null),
    };
    for (const warning of emptyPlaceholderWarnings(template, values)) {
      const key = `${template.type}:${warning.placeholder}`;
      if (seen.has(key)) continue;
      seen.add(key);
      warnings.push({ ...warning, email_type: template.type, email_name: emailName(template.type) });
    }
  }
  return warnings;
}
