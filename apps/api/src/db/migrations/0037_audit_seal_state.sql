-- The sealer finds what to link without a queue (issue #33). Every statement that wrote an
-- event also inserted its `seq` into `audit_seal_queue`, and the sealer deleted it: an insert
-- and a delete with their index entries for each event, a participant's every answer. Now the
-- sealer keeps where it stands (`audit_seal_state`) and reads the events themselves by `seq`.
--
-- What makes that safe: an event's `seq` is taken by a transaction that already has its id (the
-- answer's statement saves the answer first; `appendAuditEvents` asks for its id first). So
-- every `seq` up to the sequence's value, read before a snapshot, belongs to a transaction
-- below that snapshot's xmax: one that has ended — its event is there, or never will be — or
-- is still open. A place found empty is kept as a hole with that xmax as its horizon; it is
-- looked at again by each seal, linked when its event has committed, and dropped once every
-- transaction older than its horizon has ended without it.

-- What the old sealer had queued is sealed first, by it.
SELECT "audit_seal"(2147483647);--> statement-breakpoint

CREATE TABLE "audit_seal_state" (
	"id" integer PRIMARY KEY NOT NULL,
	"examined_through" bigint NOT NULL,
	"holes" bigint[] NOT NULL,
	"hole_horizons" bigint[] NOT NULL
);--> statement-breakpoint

-- Every event committed so far is linked (just above): the sealer starts after the last one.
INSERT INTO "audit_seal_state" (id, examined_through, holes, hole_horizons)
SELECT 1, coalesce(max(event_seq), 0), '{}', '{}' FROM "audit_chain";--> statement-breakpoint

-- Links the events committed since the last seal, in `seq` order, after the chain's tail, and
-- answers how many. 0 when another session holds the sealer's lock (it is sealing them).
-- `batch` bounds the places read a round; rounds go on until the sequence's value is reached.
CREATE OR REPLACE FUNCTION "audit_seal"(batch integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  allocated bigint;
  horizon bigint;
  settled bigint;
  v_through bigint;
  v_holes bigint[];
  v_horizons bigint[];
  upto bigint;
  tail_seq bigint;
  tail_hash text;
  e "audit_events";
  linked_hash text;
  found_seqs bigint[];
  chain_seqs bigint[];
  event_seqs bigint[];
  event_ids uuid[];
  prev_hashes text[];
  hashes text[];
  sealed integer := 0;
BEGIN
  -- One sealer at a time, whatever the number of processes (the key is the app's sealer's).
  IF NOT pg_try_advisory_xact_lock(73110033) THEN
    RETURN 0;
  END IF;
  -- The sequence first, then a snapshot: every place up to it was taken below that xmax.
  SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END INTO allocated FROM "audit_events_seq_seq";
  horizon := pg_snapshot_xmax(pg_current_snapshot())::text::bigint;
  -- Transactions older than this had all ended before the events below are read.
  settled := pg_snapshot_xmin(pg_current_snapshot())::text::bigint;
  SELECT s.examined_through, s.holes, s.hole_horizons INTO v_through, v_holes, v_horizons
  FROM "audit_seal_state" s WHERE s.id = 1 FOR UPDATE;
  SELECT chain_seq, hash INTO tail_seq, tail_hash FROM "audit_chain" ORDER BY chain_seq DESC LIMIT 1;
  tail_seq := coalesce(tail_seq, 0);
  tail_hash := coalesce(tail_hash, repeat('0', 64));
  LOOP
    upto := least(allocated, v_through + batch);
    found_seqs := '{}';
    chain_seqs := '{}';
    event_seqs := '{}';
    event_ids := '{}';
    prev_hashes := '{}';
    hashes := '{}';
    FOR e IN
      SELECT * FROM "audit_events" WHERE (seq > v_through AND seq <= upto) OR seq = ANY (v_holes) ORDER BY seq
    LOOP
      linked_hash := "audit_event_hash"(tail_hash, e);
      tail_seq := tail_seq + 1;
      found_seqs := found_seqs || e.seq;
      chain_seqs := chain_seqs || tail_seq;
      event_seqs := event_seqs || e.seq;
      event_ids := event_ids || e.id;
      prev_hashes := prev_hashes || tail_hash;
      hashes := hashes || linked_hash;
      tail_hash := linked_hash;
    END LOOP;
    INSERT INTO "audit_chain" (chain_seq, event_seq, event_id, prev_hash, hash)
    SELECT * FROM unnest(chain_seqs, event_seqs, event_ids, prev_hashes, hashes);
    sealed := sealed + cardinality(found_seqs);
    -- Holes kept: the earlier ones still empty whose transactions may yet commit, and the places
    -- read now and found empty.
    SELECT coalesce(array_agg(h.seq ORDER BY h.seq), '{}'), coalesce(array_agg(h.horizon ORDER BY h.seq), '{}')
    INTO v_holes, v_horizons
    FROM (
      SELECT o.seq, o.horizon FROM unnest(v_holes, v_horizons) AS o(seq, horizon)
      WHERE o.horizon > settled AND o.seq <> ALL (found_seqs)
      UNION ALL
      SELECT g, horizon FROM generate_series(v_through + 1, upto) AS g WHERE g <> ALL (found_seqs)
    ) h;
    v_through := upto;
    EXIT WHEN v_through >= allocated;
  END LOOP;
  UPDATE "audit_seal_state" SET examined_through = v_through, holes = v_holes, hole_horizons = v_horizons WHERE id = 1;
  RETURN sealed;
END
$$;
