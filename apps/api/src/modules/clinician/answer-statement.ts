import { eventRow, type AuditEventInput } from '../audit/audit-scope.service.js';

/*
 * The answer's hot path: one statement that checks every rule and saves the answer (see
 * `saveCheckedAnswer` in attempts.repository.ts), and its form that writes the call's audit
 * event with it.
 */

/** `saveCheckedAnswer`'s statement (see there); prepared once a connection. */
export const SAVE_CHECKED_ANSWER = `
  with target as (
    select u.id from user_season_round_cases u join cases c on c.id = u.case_id
    where u.id = $1 and u.user_id = $2 and u.case_id = $3 and u.unlocks_on <= $4::date
      and c.status = 'PUBLISHED' and c.xmin = $5::xid
      and not exists (select 1 from seasons s where s.id = u.season_id and s.end_date < $4::date)
    for share of c
  ), moved as (
    update user_season_round_cases u
    set status = 'IN_PROGRESS', started_at = coalesce(u.started_at, $6::timestamptz)
    from target t
    where u.id = t.id and u.status <> 'COMPLETE'
    returning u.id
  )
  insert into case_answers (user_season_round_case_id, question_id, choice_ids, text, none_of_below, updated_at)
  select m.id, $7::uuid, $8::jsonb, $9::text, $10::boolean, $6::timestamptz
  from moved m
  on conflict (user_season_round_case_id, question_id) do update set choice_ids = excluded.choice_ids,
    text = excluded.text, none_of_below = excluded.none_of_below, updated_at = excluded.updated_at
  returning 1 as saved`;

/**
 * The same statement writing the call's audit event too, when it saves the answer: the event
 * commits with the answer, in the one round trip (see `takeCallEvent`). The event's insert waits
 * on `saved` (`where exists`): the answer's write has taken the transaction's id before the
 * event takes its `seq`, as the sealer counts on (`audit_seal`, migration 0037).
 */
export const SAVE_CHECKED_ANSWER_RECORDED = SAVE_CHECKED_ANSWER.replace(
  '  insert into case_answers',
  '  , saved as (\n  insert into case_answers',
).replace(
  'returning 1 as saved',
  `returning 1 as saved
  ), recorded as (
    insert into audit_events (id, at, actor_id, actor_email, actor_role, actor_client_id, action, target_type,
      target_id, project_id, client_id, request_id, ip, changes, outcome)
    select $11::uuid, $12::timestamptz, $13::uuid, $14::text, $15::text, $16::uuid, $17::text, $18::text,
      $19::text, $20::uuid, $21::uuid, $22::text, $23::text, $24::jsonb, $25::text
    where exists (select 1 from saved)
  )
  select saved from saved`,
);

/** An event's values in the order of `SAVE_CHECKED_ANSWER_RECORDED`'s parameters $11…$25. */
export function eventParameters(event: AuditEventInput): unknown[] {
  const row = eventRow(event);
  return [
    row.id,
    row.at,
    row.actorId,
    row.actorEmail,
    row.actorRole,
    row.actorClientId,
    row.action,
    row.targetType,
    row.targetId,
    row.projectId,
    row.clientId,
    row.requestId,
    row.ip,
    JSON.stringify(row.changes),
    row.outcome,
  ];
}
