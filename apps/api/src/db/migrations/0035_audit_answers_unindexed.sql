DROP INDEX "audit_events_target_idx";--> statement-breakpoint
DROP INDEX "audit_events_action_idx";--> statement-breakpoint
CREATE INDEX "audit_events_target_idx" ON "audit_events" USING btree ("target_type","target_id","seq") WHERE action <> 'attempts.answer';--> statement-breakpoint
CREATE INDEX "audit_events_action_idx" ON "audit_events" USING btree ("action","seq") WHERE action <> 'attempts.answer';