CREATE TABLE "email_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"template_id" uuid NOT NULL,
	"season_id" uuid,
	"round_number" smallint,
	"user_id" uuid,
	"to_address" text NOT NULL,
	"kind" text NOT NULL,
	"rule_day" date NOT NULL,
	"dedupe_key" text NOT NULL,
	"status" text DEFAULT 'QUEUED' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_at" timestamp with time zone,
	"lease_until" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"last_error" text,
	"error_code" text,
	"attempt_log" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_outbox_kind_check" CHECK ("email_outbox"."kind" in ('SCHEDULED', 'MANUAL', 'TEST')),
	CONSTRAINT "email_outbox_status_check" CHECK ("email_outbox"."status" in ('QUEUED', 'SENDING', 'SENT', 'FAILED', 'CANCELLED', 'UNSENT'))
);
--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_template_id_email_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."email_templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_season_id_seasons_id_fk" FOREIGN KEY ("season_id") REFERENCES "public"."seasons"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "email_outbox_dedupe_key" ON "email_outbox" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "email_outbox_queued_idx" ON "email_outbox" USING btree ("next_attempt_at") WHERE "email_outbox"."status" = 'QUEUED';--> statement-breakpoint
CREATE INDEX "email_outbox_leased_idx" ON "email_outbox" USING btree ("lease_until") WHERE "email_outbox"."status" = 'SENDING';--> statement-breakpoint
CREATE INDEX "email_outbox_project_created_idx" ON "email_outbox" USING btree ("project_id","created_at","id");--> statement-breakpoint
CREATE INDEX "email_outbox_template_idx" ON "email_outbox" USING btree ("template_id");--> statement-breakpoint
CREATE INDEX "email_outbox_user_idx" ON "email_outbox" USING btree ("user_id");