CREATE TABLE "email_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"season_id" uuid,
	"type" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"button_text" text NOT NULL,
	"dashboard_url_text" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"send_mode" text DEFAULT 'AUTOMATIC' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_templates_type_check" CHECK ("email_templates"."type" in ('initial', 'reminder', 'last_day_of_round', 'new_round', 'last_round', 'summary_launch', 'summary_reminder', 'season_summary_launch', 'season_summary_reminder')),
	CONSTRAINT "email_templates_send_mode_check" CHECK ("email_templates"."send_mode" in ('AUTOMATIC', 'MANUAL'))
);
--> statement-breakpoint
ALTER TABLE "email_templates" ADD CONSTRAINT "email_templates_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_templates" ADD CONSTRAINT "email_templates_season_id_seasons_id_fk" FOREIGN KEY ("season_id") REFERENCES "public"."seasons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "email_templates_project_type_key" ON "email_templates" USING btree ("project_id","type") WHERE "email_templates"."season_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "email_templates_season_type_key" ON "email_templates" USING btree ("season_id","type");--> statement-breakpoint
CREATE INDEX "email_templates_project_idx" ON "email_templates" USING btree ("project_id","season_id");