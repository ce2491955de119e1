CREATE TABLE "project_surveys" (
	"project_id" uuid PRIMARY KEY NOT NULL,
	"start_new_template_id" uuid,
	"start_returning_template_id" uuid,
	"review_template_id" uuid,
	"end_template_id" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "survey_responses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"template_id" uuid NOT NULL,
	"template_type" text NOT NULL,
	"user_season_round_case_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"season_id" uuid NOT NULL,
	"answers" jsonb NOT NULL,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "survey_responses_type_check" CHECK ("survey_responses"."template_type" in ('START_NEW', 'START_RETURNING', 'REVIEW', 'END'))
);
--> statement-breakpoint
CREATE TABLE "survey_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"pages" jsonb NOT NULL,
	"page_count" integer DEFAULT 0 NOT NULL,
	"question_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "survey_templates_type_check" CHECK ("survey_templates"."type" in ('START_NEW', 'START_RETURNING', 'REVIEW', 'END'))
);
--> statement-breakpoint
ALTER TABLE "project_surveys" ADD CONSTRAINT "project_surveys_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_surveys" ADD CONSTRAINT "project_surveys_start_new_template_id_survey_templates_id_fk" FOREIGN KEY ("start_new_template_id") REFERENCES "public"."survey_templates"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_surveys" ADD CONSTRAINT "project_surveys_start_returning_template_id_survey_templates_id_fk" FOREIGN KEY ("start_returning_template_id") REFERENCES "public"."survey_templates"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_surveys" ADD CONSTRAINT "project_surveys_review_template_id_survey_templates_id_fk" FOREIGN KEY ("review_template_id") REFERENCES "public"."survey_templates"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_surveys" ADD CONSTRAINT "project_surveys_end_template_id_survey_templates_id_fk" FOREIGN KEY ("end_template_id") REFERENCES "public"."survey_templates"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_responses" ADD CONSTRAINT "survey_responses_template_id_survey_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."survey_templates"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_responses" ADD CONSTRAINT "survey_responses_user_season_round_case_id_user_season_round_cases_id_fk" FOREIGN KEY ("user_season_round_case_id") REFERENCES "public"."user_season_round_cases"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_responses" ADD CONSTRAINT "survey_responses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_responses" ADD CONSTRAINT "survey_responses_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_responses" ADD CONSTRAINT "survey_responses_season_id_seasons_id_fk" FOREIGN KEY ("season_id") REFERENCES "public"."seasons"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "project_surveys_start_new_idx" ON "project_surveys" USING btree ("start_new_template_id");--> statement-breakpoint
CREATE INDEX "project_surveys_start_returning_idx" ON "project_surveys" USING btree ("start_returning_template_id");--> statement-breakpoint
CREATE INDEX "project_surveys_review_idx" ON "project_surveys" USING btree ("review_template_id");--> statement-breakpoint
CREATE INDEX "project_surveys_end_idx" ON "project_surveys" USING btree ("end_template_id");--> statement-breakpoint
CREATE UNIQUE INDEX "survey_responses_once_key" ON "survey_responses" USING btree ("user_id","template_id","user_season_round_case_id");--> statement-breakpoint
CREATE INDEX "survey_responses_template_idx" ON "survey_responses" USING btree ("template_id");--> statement-breakpoint
CREATE INDEX "survey_responses_usrc_idx" ON "survey_responses" USING btree ("user_season_round_case_id");--> statement-breakpoint
CREATE INDEX "survey_responses_report_idx" ON "survey_responses" USING btree ("project_id","template_type","user_id");--> statement-breakpoint
CREATE INDEX "survey_responses_season_idx" ON "survey_responses" USING btree ("user_id","season_id");--> statement-breakpoint
CREATE INDEX "survey_templates_name_idx" ON "survey_templates" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "survey_templates_type_idx" ON "survey_templates" USING btree ("type","name");--> statement-breakpoint
CREATE INDEX "survey_templates_updated_idx" ON "survey_templates" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "survey_templates_created_idx" ON "survey_templates" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "survey_templates_name_trgm_idx" ON "survey_templates" USING gin ("name" gin_trgm_ops);