CREATE TABLE "season_summaries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"season_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"greeting" text DEFAULT '' NOT NULL,
	"video_url" text,
	"sheet" jsonb,
	"video" jsonb,
	"status" text DEFAULT 'DRAFT' NOT NULL,
	"posted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "season_summaries_status_check" CHECK ("season_summaries"."status" in ('DRAFT', 'POSTED')),
	CONSTRAINT "season_summaries_one_video_check" CHECK ("season_summaries"."video" is null or "season_summaries"."video_url" is null)
);
--> statement-breakpoint
ALTER TABLE "season_summaries" ADD CONSTRAINT "season_summaries_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "season_summaries" ADD CONSTRAINT "season_summaries_season_id_seasons_id_fk" FOREIGN KEY ("season_id") REFERENCES "public"."seasons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "season_summaries_season_key" ON "season_summaries" USING btree ("season_id");--> statement-breakpoint
CREATE INDEX "season_summaries_project_idx" ON "season_summaries" USING btree ("project_id","status");