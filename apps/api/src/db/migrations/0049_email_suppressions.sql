CREATE TABLE "email_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"type" text NOT NULL,
	"email" text NOT NULL,
	"outbox_id" uuid,
	"detail" text DEFAULT '' NOT NULL,
	"source" text NOT NULL,
	"external_id" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "email_events_email_lowercase" CHECK ("email_events"."email" = lower("email_events"."email")),
	CONSTRAINT "email_events_type_check" CHECK ("email_events"."type" in ('HARD_BOUNCE', 'SOFT_BOUNCE', 'COMPLAINT')),
	CONSTRAINT "email_events_source_check" CHECK ("email_events"."source" in ('imap', 'ses', 'sendgrid', 'mailgun', 'postmark'))
);
--> statement-breakpoint
CREATE TABLE "email_suppressions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"project_id" uuid,
	"reason" text NOT NULL,
	"detail" text DEFAULT '' NOT NULL,
	"source" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "email_suppressions_email_lowercase" CHECK ("email_suppressions"."email" = lower("email_suppressions"."email")),
	CONSTRAINT "email_suppressions_reason_check" CHECK ("email_suppressions"."reason" in ('HARD_BOUNCE', 'SOFT_BOUNCES', 'COMPLAINT', 'UNSUBSCRIBED', 'MANUAL')),
	CONSTRAINT "email_suppressions_source_check" CHECK ("email_suppressions"."source" in ('imap', 'ses', 'sendgrid', 'mailgun', 'postmark', 'one-click', 'dashboard', 'admin'))
);
--> statement-breakpoint
ALTER TABLE "email_outbox" DROP CONSTRAINT "email_outbox_status_check";--> statement-breakpoint
ALTER TABLE "email_events" ADD CONSTRAINT "email_events_outbox_id_email_outbox_id_fk" FOREIGN KEY ("outbox_id") REFERENCES "public"."email_outbox"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_suppressions" ADD CONSTRAINT "email_suppressions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "email_events_source_external_key" ON "email_events" USING btree ("source","external_id");--> statement-breakpoint
CREATE INDEX "email_events_email_at_idx" ON "email_events" USING btree ("email","at");--> statement-breakpoint
CREATE INDEX "email_events_outbox_idx" ON "email_events" USING btree ("outbox_id") WHERE "email_events"."outbox_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "email_suppressions_email_project_key" ON "email_suppressions" USING btree ("email",coalesce("project_id", '00000000-0000-0000-0000-000000000000'::uuid));--> statement-breakpoint
CREATE INDEX "email_suppressions_at_idx" ON "email_suppressions" USING btree ("at","id");--> statement-breakpoint
CREATE INDEX "email_suppressions_project_idx" ON "email_suppressions" USING btree ("project_id") WHERE "email_suppressions"."project_id" is not null;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_status_check" CHECK ("email_outbox"."status" in ('QUEUED', 'SENDING', 'SENT', 'FAILED', 'CANCELLED', 'UNSENT', 'SUPPRESSED'));