import { sql } from 'drizzle-orm';
import { emailTypeDescriptor, type EmailCondition, type EmailTypeValue, type SkippedParticipant } from '@pss/contract';
import { completedSeason } from '../../db/attempt-sync.js';
import { rowsOf, type Executor } from '../../db/client.js';
import { whyNotNow, type ParticipantFacts } from './email-rules.js';
import { createEmailScheduleRepository } from './email-schedule.repository.js';

/** Conditions read against the participant's place in a season (an email of another goes to anyone chosen). */
const seasonalConditions: readonly EmailCondition[] = ['started', 'round-unfinished', 'summary-posted'];

interface Row {
  user_id: string;
  email: string;
  first_name: string;
  last_name: string;
  start_date: string | null;
  first_round: number | null;
  last_round: number | null;
  completed: number;
  completed_season: boolean;
}

export interface SendNowChoice {
  recipients: { userId: string; email: string }[];
  skipped: SkippedParticipant[];
}

/**
 * Who of the chosen participants an email sent by hand today is true for, and who is skipped
 * and why (`whyNotNow` in ./email-rules.ts, the schedule's reasoning). Archived participants
 * and anyone not in the project are not read. `context` is the season and round the email
 * speaks of (the template's season, else the one running, else the next, else the last).
 */
export async function chooseRecipients(
  db: Executor,
  timeZone: string,
  template: { projectId: string; type: EmailTypeValue },
  userIds: string[],
  day: string,
  context: { seasonId: string; roundNumber: number } | null,
): Promise<SendNowChoice> {
  const seasonal = seasonalConditions.includes(emailTypeDescriptor(template.type).condition);
  const seasons =
    seasonal && context ? await createEmailScheduleRepository(db, timeZone).projectSeasons(template.projectId) : [];
  const season = seasons.find((s) => s.id === context?.seasonId);
  const round = season?.rounds.find((r) => r.number === context?.roundNumber);
  const choice: SendNowChoice = { recipients: [], skipped: [] };
  for (let i = 0; i < userIds.length; i += 1000) {
    const ids = sql.join(
      userIds.slice(i, i + 1000).map((id) => sql`${id}::uuid`),
      sql`, `,
    );
    const rows = rowsOf<Row>(
      await db.execute(sql`
        select pp.user_id, u.email, u.first_name, u.last_name, pa.start_date::text as start_date,
          pa.first_round, pa.last_round,
          ${
            season && round
              ? sql`(select count(*)::int from user_season_round_cases x
                  where x.user_id = pp.user_id and x.season_id = ${season.id}::uuid
                    and x.round_number = ${round.number} and x.status = 'COMPLETE')`
              : sql`0`
          } as completed,
          ${season?.summaryPostedOn ? completedSeason(sql`pp.user_id`, sql`${season.id}::uuid`) : sql`false`}
            as completed_season
        from project_participants pp
        join users u on u.id = pp.user_id
        left join participant_assignments pa on pa.user_id = pp.user_id
          and pa.season_id = ${season?.id ?? null}::uuid
        where pp.project_id = ${template.projectId}::uuid and not pp.archived and pp.user_id in (${ids})
        order by pp.sort_name, pp.user_id`),
    );
    for (const r of rows) {
      const facts: ParticipantFacts | null =
        r.start_date === null
          ? null
          : {
              userId: r.user_id,
              startDate: r.start_date,
              firstRound: r.first_round!,
              lastRound: r.last_round!,
              returning: false,
              completedInRound: r.completed,
              completedSeason: r.completed_season,
            };
      const reason = !seasonal
        ? null
        : !season
          ? 'The project has no season with rounds for this email to speak of.'
          : whyNotNow(template.type, day, season, round, facts);
      if (reason) {
        choice.skipped.push({ participant_id: r.user_id, name: `${r.first_name} ${r.last_name}`.trim(), reason });
      } else {
        choice.recipients.push({ userId: r.user_id, email: r.email });
      }
    }
  }
  return choice;
}
