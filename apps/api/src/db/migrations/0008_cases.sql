CREATE TABLE "case_previews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"case_id" uuid NOT NULL,
	"taken_by" uuid NOT NULL,
	"snapshot" jsonb NOT NULL,
	"answers" jsonb NOT NULL,
	"score" smallint NOT NULL,
	"completed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"origin" text DEFAULT 'CUSTOM' NOT NULL,
	"client_id" uuid,
	"project_id" uuid,
	"module_id" uuid,
	"status" text DEFAULT 'DRAFT' NOT NULL,
	"name" text NOT NULL,
	"disease_type_id" uuid,
	"patient_name" text DEFAULT '' NOT NULL,
	"patient_age" smallint,
	"image_key" text,
	"image_type" text,
	"reason_for_encounter" text DEFAULT '' NOT NULL,
	"season_id" uuid,
	"round_number" smallint,
	"feedback_type" text,
	"references" text DEFAULT '' NOT NULL,
	"test_results" text DEFAULT '' NOT NULL,
	"explanation" text DEFAULT '' NOT NULL,
	"body" jsonb NOT NULL,
	"question_count" integer DEFAULT 0 NOT NULL,
	"source_case_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cases_round_check" CHECK ("cases"."round_number" between 1 and 4),
	CONSTRAINT "cases_home_check" CHECK (("cases"."project_id" is not null) or ("cases"."module_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "case_previews" ADD CONSTRAINT "case_previews_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_previews" ADD CONSTRAINT "case_previews_taken_by_users_id_fk" FOREIGN KEY ("taken_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_disease_type_id_disease_types_id_fk" FOREIGN KEY ("disease_type_id") REFERENCES "public"."disease_types"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_season_id_seasons_id_fk" FOREIGN KEY ("season_id") REFERENCES "public"."seasons"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "case_previews_case_idx" ON "case_previews" USING btree ("case_id","completed_at","id");--> statement-breakpoint
CREATE INDEX "cases_project_name_idx" ON "cases" USING btree ("project_id",lower("name"),"id");--> statement-breakpoint
CREATE INDEX "cases_project_updated_idx" ON "cases" USING btree ("project_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "cases_module_name_idx" ON "cases" USING btree ("module_id",lower("name"),"id");--> statement-breakpoint
CREATE INDEX "cases_season_idx" ON "cases" USING btree ("season_id","round_number");--> statement-breakpoint
CREATE INDEX "cases_source_idx" ON "cases" USING btree ("source_case_id");