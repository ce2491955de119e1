-- The season figures kept current (issue #36; tables in 0040, reading in
-- modules/statistics/kept-figures.repository.ts). Everything a figure depends on changes
-- through one of the triggers below, in the transaction that changes it: a participant's
-- contribution is taken away before the change and added back after it, so no write path
-- of the app can forget to count, and `kept_rebuild(season)` recomputes a season from the
-- source rows (after a case is published or moved, and in the tests that prove kept =
-- rebuilt). All of them are ENABLE ALWAYS: they fire also while an import has row triggers
-- switched off for its foreign keys (db/bulk-writes.ts).
--
-- Counting reads what other transactions may be changing, so it takes advisory locks: a
-- change of membership (and a rebuild) locks its seasons alone; an attempt's change shares
-- its season's lock and locks its participant alone. Submits in a season run side by side;
-- an archive, an import or a rebuild waits for them, and they for it.
CREATE TYPE "kept_member" AS (user_id uuid, season_id uuid, first_round smallint, last_round smallint, start_date date);
--> statement-breakpoint
-- The members' begun work: their attempts, not NOT_STARTED, at the published cases of their rounds.
CREATE FUNCTION "kept_work"(members "kept_member"[]) RETURNS TABLE (
  user_id uuid, season_id uuid, first_round smallint, last_round smallint, start_date date,
  case_id uuid, round_number smallint, status text, score smallint, submitted_at timestamptz, attempt_id uuid
) LANGUAGE sql STABLE AS $$
  SELECT m.user_id, m.season_id, m.first_round, m.last_round, m.start_date,
    c.id, c.round_number, x.status, x.score, x.submitted_at, x.id
  FROM unnest(members) m
  JOIN user_season_round_cases x ON x.user_id = m.user_id AND x.status <> 'NOT_STARTED'
  JOIN cases c ON c.id = x.case_id AND c.season_id = m.season_id AND c.status = 'PUBLISHED'
    AND c.round_number BETWEEN m.first_round AND m.last_round
  -- A case counts in a round the season has (as db/attempt-sync.ts `assignedCases` says).
  JOIN rounds r ON r.season_id = c.season_id AND r.number = c.round_number
$$;
--> statement-breakpoint
-- Adds (sign 1) or takes away (sign -1) the members' begun work; `only_case` narrows the
-- per-case rows to one case (an attempt's change), the progress rows being whole-member.
CREATE FUNCTION "kept_work_apply"(members "kept_member"[], sign integer, only_case uuid) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  -- Only members who have begun something have work to count: an import of 100,000 new
  -- participants looks each up once here, not once per kept table.
  members := ARRAY(
    SELECT ROW(m.user_id, m.season_id, m.first_round, m.last_round, m.start_date)::kept_member
    FROM unnest(members) m
    WHERE EXISTS (SELECT 1 FROM user_season_round_cases x WHERE x.user_id = m.user_id AND x.status <> 'NOT_STARTED'));
  IF cardinality(members) = 0 THEN RETURN; END IF;

  INSERT INTO kept_progress AS k (season_id, first_round, last_round, start_date, started_rounds, done_rounds, participants)
  SELECT u.season_id, u.first_round, u.last_round, u.start_date, u.started, u.done, sign * count(*)::int
  FROM (
    SELECT p.user_id, p.season_id, p.first_round, p.last_round, p.start_date,
      bit_or(1 << (p.round_number - 1))::smallint AS started,
      bit_or(CASE WHEN p.completed = rc.n THEN 1 << (p.round_number - 1) ELSE 0 END)::smallint AS done
    FROM (
      SELECT w.user_id, w.season_id, w.first_round, w.last_round, w.start_date, w.round_number,
        count(*) FILTER (WHERE w.status = 'COMPLETE') AS completed
      FROM kept_work(members) w
      GROUP BY 1, 2, 3, 4, 5, 6
    ) p
    JOIN (
      SELECT c.season_id, c.round_number, count(*) AS n FROM cases c
      WHERE c.status = 'PUBLISHED' AND c.round_number IS NOT NULL
        AND c.season_id IN (SELECT DISTINCT m.season_id FROM unnest(members) m)
      GROUP BY 1, 2
    ) rc ON rc.season_id = p.season_id AND rc.round_number = p.round_number
    GROUP BY 1, 2, 3, 4, 5
  ) u
  GROUP BY 1, 2, 3, 4, 5, 6
  ON CONFLICT (season_id, first_round, last_round, start_date, started_rounds, done_rounds)
  DO UPDATE SET participants = k.participants + excluded.participants;

  INSERT INTO kept_case_counts AS k (season_id, case_id, first_round, last_round, start_date, started, completed, scored, score_sum)
  SELECT w.season_id, w.case_id, w.first_round, w.last_round, w.start_date,
    sign * count(*)::int,
    sign * (count(*) FILTER (WHERE w.status = 'COMPLETE'))::int,
    sign * (count(w.score) FILTER (WHERE w.status = 'COMPLETE'))::int,
    sign * coalesce(sum(w.score) FILTER (WHERE w.status = 'COMPLETE'), 0)
  FROM kept_work(members) w
  WHERE only_case IS NULL OR w.case_id = only_case
  GROUP BY 1, 2, 3, 4, 5
  ON CONFLICT (season_id, case_id, first_round, last_round, start_date) DO UPDATE SET
    started = k.started + excluded.started, completed = k.completed + excluded.completed,
    scored = k.scored + excluded.scored, score_sum = k.score_sum + excluded.score_sum;

  INSERT INTO kept_completion_quarters AS k (season_id, quarter, completed)
  SELECT w.season_id, date_bin('15 minutes', w.submitted_at, timestamptz '2000-01-01 00:00:00+00'), sign * count(*)::int
  FROM kept_work(members) w
  WHERE w.status = 'COMPLETE' AND w.submitted_at IS NOT NULL AND (only_case IS NULL OR w.case_id = only_case)
  GROUP BY 1, 2
  ON CONFLICT (season_id, quarter) DO UPDATE SET completed = k.completed + excluded.completed;

  INSERT INTO kept_choice_picks AS k (season_id, case_id, question_id, choice_id, picked)
  SELECT w.season_id, w.case_id, a.question_id, picked.choice_id, sign * count(*)::int
  FROM kept_work(members) w
  JOIN case_answers a ON a.user_season_round_case_id = w.attempt_id AND NOT a.none_of_below
  CROSS JOIN LATERAL jsonb_array_elements_text(a.choice_ids) AS picked(choice_id)
  WHERE w.status = 'COMPLETE' AND (only_case IS NULL OR w.case_id = only_case)
  GROUP BY 1, 2, 3, 4
  ON CONFLICT (season_id, case_id, question_id, choice_id) DO UPDATE SET picked = k.picked + excluded.picked;
END
$$;
--> statement-breakpoint
-- The advisory lock keys: a season's, a participant's (two classes of the two-key form).
CREATE FUNCTION "kept_lock_seasons"(seasons uuid[]) RETURNS void LANGUAGE sql VOLATILE AS $$
  SELECT count(pg_advisory_xact_lock(73110036, hashtext(s::text)))::int * 0 FROM (
    SELECT DISTINCT s FROM unnest(seasons) s ORDER BY s
  ) ordered
$$;
--> statement-breakpoint
-- Members joining (sign 1) or leaving (sign -1): their group, and their begun work.
CREATE FUNCTION "kept_members_apply"(members "kept_member"[], sign integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF members IS NULL OR cardinality(members) = 0 THEN RETURN; END IF;
  PERFORM kept_lock_seasons(ARRAY(SELECT m.season_id FROM unnest(members) m));
  INSERT INTO kept_member_groups AS k (season_id, first_round, last_round, start_date, members)
  SELECT m.season_id, m.first_round, m.last_round, m.start_date, sign * count(*)::int
  FROM unnest(members) m
  GROUP BY 1, 2, 3, 4
  ON CONFLICT (season_id, first_round, last_round, start_date) DO UPDATE SET members = k.members + excluded.members;
  PERFORM kept_work_apply(members, sign, NULL);
END
$$;
--> statement-breakpoint
-- The user's membership of the season, as the statistics count it (none, or one).
CREATE FUNCTION "kept_members_of"(who uuid, season uuid) RETURNS "kept_member"[] LANGUAGE sql STABLE AS $$
  SELECT coalesce(array_agg(ROW(pa.user_id, pa.season_id, pa.first_round, pa.last_round, pa.start_date)::kept_member), '{}')
  FROM participant_assignments pa
  JOIN project_participants pp ON pp.project_id = pa.project_id AND pp.user_id = pa.user_id AND NOT pp.archived
  JOIN users u ON u.id = pa.user_id AND u.role <> 'TESTUSER'
  WHERE pa.user_id = who AND pa.season_id = season
$$;
--> statement-breakpoint
-- A season's kept rows recomputed from the source rows.
CREATE FUNCTION "kept_rebuild"(season uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM kept_lock_seasons(ARRAY[season]);
  DELETE FROM kept_member_groups WHERE season_id = season;
  DELETE FROM kept_progress WHERE season_id = season;
  DELETE FROM kept_case_counts WHERE season_id = season;
  DELETE FROM kept_completion_quarters WHERE season_id = season;
  DELETE FROM kept_choice_picks WHERE season_id = season;
  -- A season being deleted (its cases' season set to null on the way) has nothing to count.
  IF NOT EXISTS (SELECT 1 FROM seasons WHERE id = season) THEN RETURN; END IF;
  PERFORM kept_members_apply(ARRAY(
    SELECT ROW(pa.user_id, pa.season_id, pa.first_round, pa.last_round, pa.start_date)::kept_member
    FROM participant_assignments pa
    JOIN project_participants pp ON pp.project_id = pa.project_id AND pp.user_id = pa.user_id AND NOT pp.archived
    JOIN users u ON u.id = pa.user_id AND u.role <> 'TESTUSER'
    WHERE pa.season_id = season), 1);
END
$$;
--> statement-breakpoint
-- An attempt begun, submitted, rescored or removed: the member's work before (BEFORE, -1) and after (AFTER, +1).
CREATE FUNCTION "kept_attempt_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign integer := CASE WHEN TG_WHEN = 'BEFORE' THEN -1 ELSE 1 END;
  touched uuid[] := '{}';  -- (user, case) pairs, flattened
  i integer;
  season uuid;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN touched := touched || ARRAY[OLD.user_id, OLD.case_id]; END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND (OLD.user_id, OLD.case_id) IS DISTINCT FROM (NEW.user_id, NEW.case_id)) THEN
    touched := touched || ARRAY[NEW.user_id, NEW.case_id];
  END IF;
  FOR i IN 1 .. cardinality(touched) BY 2 LOOP
    season := (SELECT c.season_id FROM cases c WHERE c.id = touched[i + 1]);
    IF TG_WHEN = 'BEFORE' AND season IS NOT NULL THEN
      PERFORM pg_advisory_xact_lock_shared(73110036, hashtext(season::text));
      PERFORM pg_advisory_xact_lock(73110037, hashtext(touched[i]::text));
    END IF;
    PERFORM kept_work_apply(kept_members_of(touched[i], season), sign, touched[i + 1]);
  END LOOP;
  IF TG_WHEN = 'AFTER' THEN RETURN NULL; END IF;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "kept_attempt_inserting" BEFORE INSERT ON "user_season_round_cases"
  FOR EACH ROW WHEN (NEW.status <> 'NOT_STARTED') EXECUTE FUNCTION "kept_attempt_changed"();
--> statement-breakpoint
CREATE TRIGGER "kept_attempt_inserted" AFTER INSERT ON "user_season_round_cases"
  FOR EACH ROW WHEN (NEW.status <> 'NOT_STARTED') EXECUTE FUNCTION "kept_attempt_changed"();
--> statement-breakpoint
CREATE TRIGGER "kept_attempt_updating" BEFORE UPDATE ON "user_season_round_cases"
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.score IS DISTINCT FROM NEW.score
    OR OLD.submitted_at IS DISTINCT FROM NEW.submitted_at OR OLD.user_id <> NEW.user_id OR OLD.case_id <> NEW.case_id)
  EXECUTE FUNCTION "kept_attempt_changed"();
--> statement-breakpoint
CREATE TRIGGER "kept_attempt_updated" AFTER UPDATE ON "user_season_round_cases"
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.score IS DISTINCT FROM NEW.score
    OR OLD.submitted_at IS DISTINCT FROM NEW.submitted_at OR OLD.user_id <> NEW.user_id OR OLD.case_id <> NEW.case_id)
  EXECUTE FUNCTION "kept_attempt_changed"();
--> statement-breakpoint
CREATE TRIGGER "kept_attempt_deleting" BEFORE DELETE ON "user_season_round_cases"
  FOR EACH ROW WHEN (OLD.status <> 'NOT_STARTED') EXECUTE FUNCTION "kept_attempt_changed"();
--> statement-breakpoint
CREATE TRIGGER "kept_attempt_deleted" AFTER DELETE ON "user_season_round_cases"
  FOR EACH ROW WHEN (OLD.status <> 'NOT_STARTED') EXECUTE FUNCTION "kept_attempt_changed"();
--> statement-breakpoint
-- Assignments made, changed or removed (an import writes thousands in one statement: once per statement).
CREATE FUNCTION "kept_assignments_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM kept_members_apply(ARRAY(
    SELECT ROW(n.user_id, n.season_id, n.first_round, n.last_round, n.start_date)::kept_member
    FROM new_rows n
    JOIN project_participants pp ON pp.project_id = n.project_id AND pp.user_id = n.user_id AND NOT pp.archived
    JOIN users u ON u.id = n.user_id AND u.role <> 'TESTUSER'), 1);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "kept_assignments_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM kept_members_apply(ARRAY(
    SELECT ROW(o.user_id, o.season_id, o.first_round, o.last_round, o.start_date)::kept_member
    FROM old_rows o
    JOIN project_participants pp ON pp.project_id = o.project_id AND pp.user_id = o.user_id AND NOT pp.archived
    JOIN users u ON u.id = o.user_id AND u.role <> 'TESTUSER'
    WHERE NOT EXISTS (
      SELECT 1 FROM new_rows n
      WHERE (n.user_id, n.season_id, n.project_id, n.first_round, n.last_round, n.start_date)
        = (o.user_id, o.season_id, o.project_id, o.first_round, o.last_round, o.start_date))), -1);
  PERFORM kept_members_apply(ARRAY(
    SELECT ROW(n.user_id, n.season_id, n.first_round, n.last_round, n.start_date)::kept_member
    FROM new_rows n
    JOIN project_participants pp ON pp.project_id = n.project_id AND pp.user_id = n.user_id AND NOT pp.archived
    JOIN users u ON u.id = n.user_id AND u.role <> 'TESTUSER'
    WHERE NOT EXISTS (
      SELECT 1 FROM old_rows o
      WHERE (n.user_id, n.season_id, n.project_id, n.first_round, n.last_round, n.start_date)
        = (o.user_id, o.season_id, o.project_id, o.first_round, o.last_round, o.start_date))), 1);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "kept_assignments_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM kept_members_apply(ARRAY(
    SELECT ROW(o.user_id, o.season_id, o.first_round, o.last_round, o.start_date)::kept_member
    FROM old_rows o
    JOIN project_participants pp ON pp.project_id = o.project_id AND pp.user_id = o.user_id AND NOT pp.archived
    JOIN users u ON u.id = o.user_id AND u.role <> 'TESTUSER'), -1);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "kept_assignments_inserted" AFTER INSERT ON "participant_assignments"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "kept_assignments_inserted"();
--> statement-breakpoint
CREATE TRIGGER "kept_assignments_updated" AFTER UPDATE ON "participant_assignments"
  REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "kept_assignments_updated"();
--> statement-breakpoint
CREATE TRIGGER "kept_assignments_deleted" AFTER DELETE ON "participant_assignments"
  REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "kept_assignments_deleted"();
--> statement-breakpoint
-- Participations made, archived or restored, or removed: the members of every season of the project they hold.
CREATE FUNCTION "kept_participations_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM kept_members_apply(ARRAY(
    SELECT ROW(pa.user_id, pa.season_id, pa.first_round, pa.last_round, pa.start_date)::kept_member
    FROM new_rows n
    JOIN participant_assignments pa ON pa.project_id = n.project_id AND pa.user_id = n.user_id
    JOIN users u ON u.id = n.user_id AND u.role <> 'TESTUSER'
    WHERE NOT n.archived), 1);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "kept_participations_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM kept_members_apply(ARRAY(
    SELECT ROW(pa.user_id, pa.season_id, pa.first_round, pa.last_round, pa.start_date)::kept_member
    FROM old_rows o
    JOIN new_rows n ON n.project_id = o.project_id AND n.user_id = o.user_id
    JOIN participant_assignments pa ON pa.project_id = o.project_id AND pa.user_id = o.user_id
    JOIN users u ON u.id = o.user_id AND u.role <> 'TESTUSER'
    WHERE NOT o.archived AND n.archived), -1);
  PERFORM kept_members_apply(ARRAY(
    SELECT ROW(pa.user_id, pa.season_id, pa.first_round, pa.last_round, pa.start_date)::kept_member
    FROM new_rows n
    JOIN old_rows o ON o.project_id = n.project_id AND o.user_id = n.user_id
    JOIN participant_assignments pa ON pa.project_id = n.project_id AND pa.user_id = n.user_id
    JOIN users u ON u.id = n.user_id AND u.role <> 'TESTUSER'
    WHERE o.archived AND NOT n.archived), 1);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "kept_participations_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM kept_members_apply(ARRAY(
    SELECT ROW(pa.user_id, pa.season_id, pa.first_round, pa.last_round, pa.start_date)::kept_member
    FROM old_rows o
    JOIN participant_assignments pa ON pa.project_id = o.project_id AND pa.user_id = o.user_id
    JOIN users u ON u.id = o.user_id AND u.role <> 'TESTUSER'
    WHERE NOT o.archived), -1);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "kept_participations_inserted" AFTER INSERT ON "project_participants"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "kept_participations_inserted"();
--> statement-breakpoint
CREATE TRIGGER "kept_participations_updated" AFTER UPDATE ON "project_participants"
  REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "kept_participations_updated"();
--> statement-breakpoint
CREATE TRIGGER "kept_participations_deleted" AFTER DELETE ON "project_participants"
  REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "kept_participations_deleted"();
--> statement-breakpoint
-- A user made a test user, or no longer one: test users are not counted.
CREATE FUNCTION "kept_users_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM kept_members_apply(ARRAY(
    SELECT ROW(pa.user_id, pa.season_id, pa.first_round, pa.last_round, pa.start_date)::kept_member
    FROM old_rows o
    JOIN new_rows n ON n.id = o.id
    JOIN participant_assignments pa ON pa.user_id = o.id
    JOIN project_participants pp ON pp.project_id = pa.project_id AND pp.user_id = pa.user_id AND NOT pp.archived
    WHERE o.role <> 'TESTUSER' AND n.role = 'TESTUSER'), -1);
  PERFORM kept_members_apply(ARRAY(
    SELECT ROW(pa.user_id, pa.season_id, pa.first_round, pa.last_round, pa.start_date)::kept_member
    FROM new_rows n
    JOIN old_rows o ON o.id = n.id
    JOIN participant_assignments pa ON pa.user_id = n.id
    JOIN project_participants pp ON pp.project_id = pa.project_id AND pp.user_id = pa.user_id AND NOT pp.archived
    WHERE o.role = 'TESTUSER' AND n.role <> 'TESTUSER'), 1);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "kept_users_updated" AFTER UPDATE ON "users"
  REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "kept_users_updated"();
--> statement-breakpoint
-- A case published, withdrawn, or moved to another round or season: which cases members have,
-- and which rounds they have done, change for the whole season; it is recomputed.
CREATE FUNCTION "kept_cases_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  season uuid;
BEGIN
  FOR season IN
    SELECT DISTINCT s FROM (
      SELECT unnest(ARRAY[o.season_id, n.season_id]) AS s
      FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE (o.status = 'PUBLISHED' OR n.status = 'PUBLISHED')
        AND (o.status, o.season_id, o.round_number) IS DISTINCT FROM (n.status, n.season_id, n.round_number)
    ) changed WHERE s IS NOT NULL
  LOOP
    PERFORM kept_rebuild(season);
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "kept_cases_added_or_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  season uuid;
BEGIN
  FOR season IN SELECT DISTINCT season_id FROM changed_rows WHERE status = 'PUBLISHED' AND season_id IS NOT NULL LOOP
    PERFORM kept_rebuild(season);
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "kept_cases_updated" AFTER UPDATE ON "cases"
  REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "kept_cases_updated"();
--> statement-breakpoint
CREATE TRIGGER "kept_cases_inserted" AFTER INSERT ON "cases"
  REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "kept_cases_added_or_removed"();
--> statement-breakpoint
CREATE TRIGGER "kept_cases_deleted" AFTER DELETE ON "cases"
  REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "kept_cases_added_or_removed"();
--> statement-breakpoint
-- A round added to a season or taken from it: its cases count, or no longer.
CREATE FUNCTION "kept_rounds_added_or_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  season uuid;
BEGIN
  FOR season IN SELECT DISTINCT season_id FROM changed_rows LOOP
    PERFORM kept_rebuild(season);
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "kept_rounds_inserted" AFTER INSERT ON "rounds"
  REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "kept_rounds_added_or_removed"();
--> statement-breakpoint
CREATE TRIGGER "kept_rounds_deleted" AFTER DELETE ON "rounds"
  REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "kept_rounds_added_or_removed"();
--> statement-breakpoint
ALTER TABLE "rounds" ENABLE ALWAYS TRIGGER "kept_rounds_inserted";--> statement-breakpoint
ALTER TABLE "rounds" ENABLE ALWAYS TRIGGER "kept_rounds_deleted";--> statement-breakpoint
ALTER TABLE "user_season_round_cases" ENABLE ALWAYS TRIGGER "kept_attempt_inserting";--> statement-breakpoint
ALTER TABLE "user_season_round_cases" ENABLE ALWAYS TRIGGER "kept_attempt_inserted";--> statement-breakpoint
ALTER TABLE "user_season_round_cases" ENABLE ALWAYS TRIGGER "kept_attempt_updating";--> statement-breakpoint
ALTER TABLE "user_season_round_cases" ENABLE ALWAYS TRIGGER "kept_attempt_updated";--> statement-breakpoint
ALTER TABLE "user_season_round_cases" ENABLE ALWAYS TRIGGER "kept_attempt_deleting";--> statement-breakpoint
ALTER TABLE "user_season_round_cases" ENABLE ALWAYS TRIGGER "kept_attempt_deleted";--> statement-breakpoint
ALTER TABLE "participant_assignments" ENABLE ALWAYS TRIGGER "kept_assignments_inserted";--> statement-breakpoint
ALTER TABLE "participant_assignments" ENABLE ALWAYS TRIGGER "kept_assignments_updated";--> statement-breakpoint
ALTER TABLE "participant_assignments" ENABLE ALWAYS TRIGGER "kept_assignments_deleted";--> statement-breakpoint
ALTER TABLE "project_participants" ENABLE ALWAYS TRIGGER "kept_participations_inserted";--> statement-breakpoint
ALTER TABLE "project_participants" ENABLE ALWAYS TRIGGER "kept_participations_updated";--> statement-breakpoint
ALTER TABLE "project_participants" ENABLE ALWAYS TRIGGER "kept_participations_deleted";--> statement-breakpoint
ALTER TABLE "users" ENABLE ALWAYS TRIGGER "kept_users_updated";--> statement-breakpoint
ALTER TABLE "cases" ENABLE ALWAYS TRIGGER "kept_cases_updated";--> statement-breakpoint
ALTER TABLE "cases" ENABLE ALWAYS TRIGGER "kept_cases_inserted";--> statement-breakpoint
ALTER TABLE "cases" ENABLE ALWAYS TRIGGER "kept_cases_deleted";--> statement-breakpoint
-- Counts for what is there already.
SELECT kept_rebuild(id) FROM seasons;
