DROP INDEX "email_outbox_queued_idx";--> statement-breakpoint
CREATE INDEX "email_outbox_queued_idx" ON "email_outbox" USING btree ("next_attempt_at","id") WHERE "email_outbox"."status" = 'QUEUED';