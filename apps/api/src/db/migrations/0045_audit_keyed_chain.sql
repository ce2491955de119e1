ALTER TABLE "audit_chain" ADD COLUMN "keyed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- The chain is sealed with a key the database does not hold (issue #46). Each link was the
-- SHA-256 of the previous hash and the event's content, computed by the database: whoever could
-- write the tables could alter an event and compute every later link again. Now the database
-- finds what to seal and gives each event's digest (the SHA-256 of its canonical content); the
-- app makes the link, HMAC-SHA256 under AUDIT_SIGNING_KEY of the previous hash and that digest,
-- and inserts it (`keyed`). The links already made stay as they are (`keyed` false): the first
-- keyed link covers their tail's hash, so altering one of them breaks it.

-- An event's digest: SHA-256 (hex) of its canonical content (`audit_event_content`, 0036).
CREATE FUNCTION "audit_event_digest"(e "audit_events") RETURNS text LANGUAGE sql STABLE AS $$
  SELECT encode(sha256(convert_to("audit_event_content"(e), 'UTF8')), 'hex')
$$;--> statement-breakpoint

-- The events committed since the last seal, in the order to link them, with their digests;
-- at most about `max_events` (rounds of `batch` places go on until the sequence's value or that
-- many). Moves the sealer's state on as `audit_seal` did (migration 0037 says how holes work),
-- so the caller must link every row it answers in the same transaction: the advisory lock and
-- the state's row lock are held until it commits (a rollback takes the state back with it).
-- Nothing when another session holds the sealer's lock. SECURITY DEFINER: the role the app
-- serves with may read the state through this function only, never write it by hand.
CREATE FUNCTION "audit_seal_collect"(batch integer, max_events integer)
RETURNS TABLE (event_seq bigint, event_id uuid, digest text)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
#variable_conflict use_column
DECLARE
  allocated bigint;
  horizon bigint;
  settled bigint;
  v_through bigint;
  v_holes bigint[];
  v_horizons bigint[];
  upto bigint;
  e "audit_events";
  found_seqs bigint[];
  total integer := 0;
BEGIN
  IF NOT pg_try_advisory_xact_lock(73110033) THEN
    RETURN;
  END IF;
  SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END INTO allocated FROM "audit_events_seq_seq";
  horizon := pg_snapshot_xmax(pg_current_snapshot())::text::bigint;
  settled := pg_snapshot_xmin(pg_current_snapshot())::text::bigint;
  SELECT s.examined_through, s.holes, s.hole_horizons INTO v_through, v_holes, v_horizons
  FROM "audit_seal_state" s WHERE s.id = 1 FOR UPDATE;
  LOOP
    upto := least(allocated, v_through + batch);
    found_seqs := '{}';
    FOR e IN
      SELECT * FROM "audit_events" a WHERE (a.seq > v_through AND a.seq <= upto) OR a.seq = ANY (v_holes) ORDER BY a.seq
    LOOP
      found_seqs := found_seqs || e.seq;
      event_seq := e.seq;
      event_id := e.id;
      digest := "audit_event_digest"(e);
      RETURN NEXT;
    END LOOP;
    total := total + cardinality(found_seqs);
    SELECT coalesce(array_agg(h.seq ORDER BY h.seq), '{}'), coalesce(array_agg(h.horizon ORDER BY h.seq), '{}')
    INTO v_holes, v_horizons
    FROM (
      SELECT o.seq, o.horizon FROM unnest(v_holes, v_horizons) AS o(seq, horizon)
      WHERE o.horizon > settled AND o.seq <> ALL (found_seqs)
      UNION ALL
      SELECT g, horizon FROM generate_series(v_through + 1, upto) AS g WHERE g <> ALL (found_seqs)
    ) h;
    v_through := upto;
    EXIT WHEN v_through >= allocated OR total >= max_events;
  END LOOP;
  UPDATE "audit_seal_state" SET examined_through = v_through, holes = v_holes, hole_horizons = v_horizons WHERE id = 1;
  RETURN;
END
$$;--> statement-breakpoint

-- What the old sealer had not reached yet is left for the new one (its state goes on as it was).
DROP FUNCTION "audit_seal"(integer);
--> statement-breakpoint
-- The append-only triggers fire whatever `session_replication_role` says: an import may set it
-- to replica to check its foreign keys once per statement (db/bulk-writes.ts), which silences
-- every ordinary trigger for the rest of its transaction.
ALTER TABLE "audit_events" ENABLE ALWAYS TRIGGER "audit_events_no_update";--> statement-breakpoint
ALTER TABLE "audit_events" ENABLE ALWAYS TRIGGER "audit_events_no_delete";--> statement-breakpoint
ALTER TABLE "audit_events" ENABLE ALWAYS TRIGGER "audit_events_no_truncate";--> statement-breakpoint
ALTER TABLE "audit_chain" ENABLE ALWAYS TRIGGER "audit_chain_no_change";--> statement-breakpoint
ALTER TABLE "audit_chain" ENABLE ALWAYS TRIGGER "audit_chain_no_truncate";
