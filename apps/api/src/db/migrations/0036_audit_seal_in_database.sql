-- The audit trail's chain is sealed and checked inside the database (issue #33). The sealer
-- read every event back into the app to hash it there: each answer's event crossed the wire a
-- second time, was parsed, canonicalised and hashed in JavaScript, and its link sent back —
-- most of what the trail cost the server per answer. Now one call, `audit_seal(batch)`, links
-- what is queued where the rows are, and the chain's check recomputes hashes with the same
-- function, `audit_event_hash`, the one definition of what a hash covers.

-- An event's canonical content: every column, in this order, as a JSON array; its time in UTC
-- with microseconds (whatever the session's time zone), `changes` as jsonb writes it (keys in
-- jsonb's own order, so the same content always gives the same text).
CREATE FUNCTION "audit_event_content"(e "audit_events") RETURNS text LANGUAGE sql STABLE AS $$
  SELECT json_build_array(e.seq, e.id, to_char(e.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    e.actor_id, e.actor_email, e.actor_role, e.actor_client_id, e.action, e.target_type, e.target_id,
    e.project_id, e.client_id, e.request_id, e.ip, e.changes, e.outcome)::text
$$;--> statement-breakpoint

-- A link's hash: SHA-256 (hex) of the previous link's hash, a newline, and the event's content.
CREATE FUNCTION "audit_event_hash"(prev_hash text, e "audit_events") RETURNS text LANGUAGE sql STABLE AS $$
  SELECT encode(sha256(convert_to(prev_hash || E'\n' || "audit_event_content"(e), 'UTF8')), 'hex')
$$;--> statement-breakpoint

-- Links up to `batch` queued events, in the order they were inserted, after the chain's tail;
-- answers how many it took from the queue (0 when another session holds the sealer's lock: it
-- is sealing them). A queued event that is not there (removed behind the app's back) leaves
-- the queue without a link.
CREATE FUNCTION "audit_seal"(batch integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  queued bigint[];
  tail_seq bigint;
  tail_hash text;
  e "audit_events";
  linked_hash text;
  chain_seqs bigint[] := '{}';
  event_seqs bigint[] := '{}';
  event_ids uuid[] := '{}';
  prev_hashes text[] := '{}';
  hashes text[] := '{}';
BEGIN
  -- One sealer at a time, whatever the number of processes (the key is the app's sealer's).
  IF NOT pg_try_advisory_xact_lock(73110033) THEN
    RETURN 0;
  END IF;
  SELECT array_agg(q.event_seq ORDER BY q.event_seq) INTO queued
  FROM (SELECT event_seq FROM "audit_seal_queue" ORDER BY event_seq LIMIT batch) q;
  IF queued IS NULL THEN
    RETURN 0;
  END IF;
  SELECT chain_seq, hash INTO tail_seq, tail_hash FROM "audit_chain" ORDER BY chain_seq DESC LIMIT 1;
  tail_seq := coalesce(tail_seq, 0);
  tail_hash := coalesce(tail_hash, repeat('0', 64));
  FOR e IN SELECT * FROM "audit_events" WHERE seq = ANY (queued) ORDER BY seq LOOP
    linked_hash := "audit_event_hash"(tail_hash, e);
    tail_seq := tail_seq + 1;
    chain_seqs := chain_seqs || tail_seq;
    event_seqs := event_seqs || e.seq;
    event_ids := event_ids || e.id;
    prev_hashes := prev_hashes || tail_hash;
    hashes := hashes || linked_hash;
    tail_hash := linked_hash;
  END LOOP;
  INSERT INTO "audit_chain" (chain_seq, event_seq, event_id, prev_hash, hash)
  SELECT * FROM unnest(chain_seqs, event_seqs, event_ids, prev_hashes, hashes);
  DELETE FROM "audit_seal_queue" WHERE event_seq = ANY (queued);
  RETURN cardinality(queued);
END
$$;--> statement-breakpoint

-- The links made before were hashed by the app over another canonical form; this trail was
-- never released, so they are made again, once, under the new one: the chain emptied (its
-- refusal triggers set aside for this statement alone) and every event queued to be sealed.
ALTER TABLE "audit_chain" DISABLE TRIGGER "audit_chain_no_truncate";--> statement-breakpoint
TRUNCATE "audit_chain";--> statement-breakpoint
ALTER TABLE "audit_chain" ENABLE TRIGGER "audit_chain_no_truncate";--> statement-breakpoint
INSERT INTO "audit_seal_queue" (event_seq) SELECT seq FROM "audit_events" ON CONFLICT DO NOTHING;
