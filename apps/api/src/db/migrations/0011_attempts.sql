CREATE TABLE "case_answers" (
	"user_season_round_case_id" uuid NOT NULL,
	"question_id" uuid NOT NULL,
	"choice_ids" jsonb NOT NULL,
	"text" text,
	"none_of_below" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "case_answers_user_season_round_case_id_question_id_pk" PRIMARY KEY("user_season_round_case_id","question_id")
);
--> statement-breakpoint
CREATE TABLE "user_season_round_cases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"case_id" uuid NOT NULL,
	"season_id" uuid NOT NULL,
	"round_number" smallint NOT NULL,
	"unlocks_on" date NOT NULL,
	"status" text DEFAULT 'NOT_STARTED' NOT NULL,
	"score" smallint,
	"started_at" timestamp with time zone,
	"submitted_at" timestamp with time zone,
	"score_accessed_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usrc_status_check" CHECK ("user_season_round_cases"."status" in ('NOT_STARTED', 'STARTED', 'IN_PROGRESS', 'COMPLETE'))
);
--> statement-breakpoint
ALTER TABLE "case_answers" ADD CONSTRAINT "case_answers_user_season_round_case_id_user_season_round_cases_id_fk" FOREIGN KEY ("user_season_round_case_id") REFERENCES "public"."user_season_round_cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_season_round_cases" ADD CONSTRAINT "user_season_round_cases_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_season_round_cases" ADD CONSTRAINT "user_season_round_cases_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_season_round_cases" ADD CONSTRAINT "user_season_round_cases_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_season_round_cases" ADD CONSTRAINT "user_season_round_cases_season_id_seasons_id_fk" FOREIGN KEY ("season_id") REFERENCES "public"."seasons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "usrc_user_case_unique" ON "user_season_round_cases" USING btree ("user_id","case_id");--> statement-breakpoint
CREATE INDEX "usrc_user_idx" ON "user_season_round_cases" USING btree ("user_id","unlocks_on");--> statement-breakpoint
CREATE INDEX "usrc_project_status_idx" ON "user_season_round_cases" USING btree ("project_id","status");--> statement-breakpoint
CREATE INDEX "usrc_case_idx" ON "user_season_round_cases" USING btree ("case_id");