-- The hash chain moves out of the events into a table of its own (see schema/audit.ts): an
-- event is never updated, not even to be sealed, and its table keeps only the log's indexes.
CREATE TABLE "audit_chain" (
	"chain_seq" bigint PRIMARY KEY NOT NULL,
	"event_seq" bigint NOT NULL,
	"event_id" uuid NOT NULL,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_seal_queue" (
	"event_seq" bigint PRIMARY KEY NOT NULL
);
--> statement-breakpoint
-- The links already made, and what was still to seal, taken over as they were.
INSERT INTO "audit_chain" ("chain_seq", "event_seq", "event_id", "prev_hash", "hash")
  SELECT "chain_seq", "seq", "id", "prev_hash", "hash" FROM "audit_events" WHERE "chain_seq" IS NOT NULL;
--> statement-breakpoint
INSERT INTO "audit_seal_queue" ("event_seq") SELECT "seq" FROM "audit_events" WHERE "chain_seq" IS NULL;
--> statement-breakpoint
DROP TRIGGER "audit_events_seal_only" ON "audit_events";
--> statement-breakpoint
DROP FUNCTION "audit_events_seal_only"();
--> statement-breakpoint
-- No UPDATE of an event at all now, whoever asks.
CREATE TRIGGER "audit_events_no_update" BEFORE UPDATE ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION "audit_events_append_only"();
--> statement-breakpoint
DROP INDEX "audit_events_id_unique";--> statement-breakpoint
DROP INDEX "audit_events_chain_seq_unique";--> statement-breakpoint
DROP INDEX "audit_events_unsealed_idx";--> statement-breakpoint
DROP INDEX "audit_events_at_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "audit_chain_event_seq_unique" ON "audit_chain" USING btree ("event_seq");--> statement-breakpoint
CREATE INDEX "audit_events_at_brin" ON "audit_events" USING brin ("at");--> statement-breakpoint
ALTER TABLE "audit_events" DROP COLUMN "chain_seq";--> statement-breakpoint
ALTER TABLE "audit_events" DROP COLUMN "prev_hash";--> statement-breakpoint
ALTER TABLE "audit_events" DROP COLUMN "hash";
--> statement-breakpoint
-- One refusal for both tables, naming the one refused.
CREATE OR REPLACE FUNCTION "audit_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
-- The chain is written once, link by link, and never changed: the same refusal as the events'.
CREATE TRIGGER "audit_chain_no_change" BEFORE UPDATE OR DELETE ON "audit_chain"
  FOR EACH ROW EXECUTE FUNCTION "audit_events_append_only"();
--> statement-breakpoint
CREATE TRIGGER "audit_chain_no_truncate" BEFORE TRUNCATE ON "audit_chain"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_append_only"();
