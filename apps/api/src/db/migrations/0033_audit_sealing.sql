ALTER TABLE "audit_events" ALTER COLUMN "seq" ADD GENERATED ALWAYS AS IDENTITY (sequence name "audit_events_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
ALTER TABLE "audit_events" ALTER COLUMN "prev_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_events" ALTER COLUMN "hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "chain_seq" bigint;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_events_chain_seq_unique" ON "audit_events" USING btree ("chain_seq");--> statement-breakpoint
CREATE INDEX "audit_events_unsealed_idx" ON "audit_events" USING btree ("seq") WHERE "audit_events"."hash" is null;--> statement-breakpoint
-- Identity values go on after the events already there (written with their place by hand).
SELECT setval(pg_get_serial_sequence('audit_events', 'seq'), coalesce(max("seq"), 0) + 1, false) FROM "audit_events";
--> statement-breakpoint
-- Events written before this migration were chained as they were inserted: their place in
-- the chain is their seq (their hash covers the same content, so it still holds).
ALTER TABLE "audit_events" DISABLE TRIGGER "audit_events_no_change";
--> statement-breakpoint
UPDATE "audit_events" SET "chain_seq" = "seq";
--> statement-breakpoint
ALTER TABLE "audit_events" ENABLE TRIGGER "audit_events_no_change";
--> statement-breakpoint
DROP TRIGGER "audit_events_no_change" ON "audit_events";
--> statement-breakpoint
CREATE TRIGGER "audit_events_no_delete" BEFORE DELETE ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION "audit_events_append_only"();
--> statement-breakpoint
-- The one UPDATE the table takes: the sealer giving an unsealed event its place and hashes,
-- once, leaving everything else as it was written. Any other UPDATE is refused, whoever asks.
CREATE FUNCTION "audit_events_seal_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD."hash" IS NULL AND OLD."chain_seq" IS NULL AND OLD."prev_hash" IS NULL
     AND NEW."hash" IS NOT NULL AND NEW."chain_seq" IS NOT NULL AND NEW."prev_hash" IS NOT NULL
     AND (to_jsonb(NEW) - 'chain_seq' - 'prev_hash' - 'hash') = (to_jsonb(OLD) - 'chain_seq' - 'prev_hash' - 'hash')
  THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_events is append-only: UPDATE refused' USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER "audit_events_seal_only" BEFORE UPDATE ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION "audit_events_seal_only"();
