-- The kept counts' statements planned for the rows they count (issue #36).
--
-- The statement triggers find their members by EXECUTE, planned for each statement's rows.
-- A query on a transition table has no parameters, so PL/pgSQL keeps the plan it made the
-- first time the function ran in a session, for the rows that statement had: a connection
-- that first added one participant planned a nested loop, and then took minutes over an
-- import's 100,000 (seen in the bench, #36). EXECUTE sees the transition tables too.
CREATE OR REPLACE FUNCTION "kept_assignments_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  members "kept_member"[];
BEGIN
  EXECUTE $q$SELECT ARRAY(
    SELECT ROW(n.user_id, n.season_id, n.first_round, n.last_round, n.start_date)::kept_member
    FROM new_rows n
    JOIN project_participants pp ON pp.project_id = n.project_id AND pp.user_id = n.user_id AND NOT pp.archived
    JOIN users u ON u.id = n.user_id AND u.role <> 'TESTUSER')$q$ INTO members;
  PERFORM kept_members_apply(members, 1);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "kept_assignments_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  members "kept_member"[];
BEGIN
  EXECUTE $q$SELECT ARRAY(
    SELECT ROW(o.user_id, o.season_id, o.first_round, o.last_round, o.start_date)::kept_member
    FROM old_rows o
    JOIN project_participants pp ON pp.project_id = o.project_id AND pp.user_id = o.user_id AND NOT pp.archived
    JOIN users u ON u.id = o.user_id AND u.role <> 'TESTUSER'
    WHERE NOT EXISTS (
      SELECT 1 FROM new_rows n
      WHERE (n.user_id, n.season_id, n.project_id, n.first_round, n.last_round, n.start_date)
        = (o.user_id, o.season_id, o.project_id, o.first_round, o.last_round, o.start_date)))$q$ INTO members;
  PERFORM kept_members_apply(members, -1);
  EXECUTE $q$SELECT ARRAY(
    SELECT ROW(n.user_id, n.season_id, n.first_round, n.last_round, n.start_date)::kept_member
    FROM new_rows n
    JOIN project_participants pp ON pp.project_id = n.project_id AND pp.user_id = n.user_id AND NOT pp.archived
    JOIN users u ON u.id = n.user_id AND u.role <> 'TESTUSER'
    WHERE NOT EXISTS (
      SELECT 1 FROM old_rows o
      WHERE (n.user_id, n.season_id, n.project_id, n.first_round, n.last_round, n.start_date)
        = (o.user_id, o.season_id, o.project_id, o.first_round, o.last_round, o.start_date)))$q$ INTO members;
  PERFORM kept_members_apply(members, 1);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "kept_assignments_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  members "kept_member"[];
BEGIN
  EXECUTE $q$SELECT ARRAY(
    SELECT ROW(o.user_id, o.season_id, o.first_round, o.last_round, o.start_date)::kept_member
    FROM old_rows o
    JOIN project_participants pp ON pp.project_id = o.project_id AND pp.user_id = o.user_id AND NOT pp.archived
    JOIN users u ON u.id = o.user_id AND u.role <> 'TESTUSER')$q$ INTO members;
  PERFORM kept_members_apply(members, -1);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "kept_participations_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  members "kept_member"[];
BEGIN
  EXECUTE $q$SELECT ARRAY(
    SELECT ROW(pa.user_id, pa.season_id, pa.first_round, pa.last_round, pa.start_date)::kept_member
    FROM new_rows n
    JOIN participant_assignments pa ON pa.project_id = n.project_id AND pa.user_id = n.user_id
    JOIN users u ON u.id = n.user_id AND u.role <> 'TESTUSER'
    WHERE NOT n.archived)$q$ INTO members;
  PERFORM kept_members_apply(members, 1);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "kept_participations_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  members "kept_member"[];
BEGIN
  EXECUTE $q$SELECT ARRAY(
    SELECT ROW(pa.user_id, pa.season_id, pa.first_round, pa.last_round, pa.start_date)::kept_member
    FROM old_rows o
    JOIN new_rows n ON n.project_id = o.project_id AND n.user_id = o.user_id
    JOIN participant_assignments pa ON pa.project_id = o.project_id AND pa.user_id = o.user_id
    JOIN users u ON u.id = o.user_id AND u.role <> 'TESTUSER'
    WHERE NOT o.archived AND n.archived)$q$ INTO members;
  PERFORM kept_members_apply(members, -1);
  EXECUTE $q$SELECT ARRAY(
    SELECT ROW(pa.user_id, pa.season_id, pa.first_round, pa.last_round, pa.start_date)::kept_member
    FROM new_rows n
    JOIN old_rows o ON o.project_id = n.project_id AND o.user_id = n.user_id
    JOIN participant_assignments pa ON pa.project_id = n.project_id AND pa.user_id = n.user_id
    JOIN users u ON u.id = n.user_id AND u.role <> 'TESTUSER'
    WHERE o.archived AND NOT n.archived)$q$ INTO members;
  PERFORM kept_members_apply(members, 1);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "kept_participations_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  members "kept_member"[];
BEGIN
  EXECUTE $q$SELECT ARRAY(
    SELECT ROW(pa.user_id, pa.season_id, pa.first_round, pa.last_round, pa.start_date)::kept_member
    FROM old_rows o
    JOIN participant_assignments pa ON pa.project_id = o.project_id AND pa.user_id = o.user_id
    JOIN users u ON u.id = o.user_id AND u.role <> 'TESTUSER'
    WHERE NOT o.archived)$q$ INTO members;
  PERFORM kept_members_apply(members, -1);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "kept_users_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  members "kept_member"[];
BEGIN
  EXECUTE $q$SELECT ARRAY(
    SELECT ROW(pa.user_id, pa.season_id, pa.first_round, pa.last_round, pa.start_date)::kept_member
    FROM old_rows o
    JOIN new_rows n ON n.id = o.id
    JOIN participant_assignments pa ON pa.user_id = o.id
    JOIN project_participants pp ON pp.project_id = pa.project_id AND pp.user_id = pa.user_id AND NOT pp.archived
    WHERE o.role <> 'TESTUSER' AND n.role = 'TESTUSER')$q$ INTO members;
  PERFORM kept_members_apply(members, -1);
  EXECUTE $q$SELECT ARRAY(
    SELECT ROW(pa.user_id, pa.season_id, pa.first_round, pa.last_round, pa.start_date)::kept_member
    FROM new_rows n
    JOIN old_rows o ON o.id = n.id
    JOIN participant_assignments pa ON pa.user_id = n.id
    JOIN project_participants pp ON pp.project_id = pa.project_id AND pp.user_id = pa.user_id AND NOT pp.archived
    WHERE o.role = 'TESTUSER' AND n.role <> 'TESTUSER')$q$ INTO members;
  PERFORM kept_members_apply(members, 1);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The counting functions take members as an array, whose size a cached generic plan does
-- not know (one attempt's member, or a season's 100,000): each call is planned for its own.
ALTER FUNCTION "kept_work_apply"("kept_member"[], integer, uuid) SET plan_cache_mode = force_custom_plan;
--> statement-breakpoint
ALTER FUNCTION "kept_members_apply"("kept_member"[], integer) SET plan_cache_mode = force_custom_plan;
