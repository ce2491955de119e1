CREATE TABLE "kept_case_counts" (
	"season_id" uuid NOT NULL,
	"case_id" uuid NOT NULL,
	"first_round" smallint NOT NULL,
	"last_round" smallint NOT NULL,
	"start_date" date NOT NULL,
	"started" integer NOT NULL,
	"completed" integer NOT NULL,
	"scored" integer NOT NULL,
	"score_sum" bigint NOT NULL,
	CONSTRAINT "kept_case_counts_season_id_case_id_first_round_last_round_start_date_pk" PRIMARY KEY("season_id","case_id","first_round","last_round","start_date")
);
--> statement-breakpoint
CREATE TABLE "kept_choice_picks" (
	"season_id" uuid NOT NULL,
	"case_id" uuid NOT NULL,
	"question_id" uuid NOT NULL,
	"choice_id" text NOT NULL,
	"picked" integer NOT NULL,
	CONSTRAINT "kept_choice_picks_season_id_case_id_question_id_choice_id_pk" PRIMARY KEY("season_id","case_id","question_id","choice_id")
);
--> statement-breakpoint
CREATE TABLE "kept_completion_quarters" (
	"season_id" uuid NOT NULL,
	"quarter" timestamp with time zone NOT NULL,
	"completed" integer NOT NULL,
	CONSTRAINT "kept_completion_quarters_season_id_quarter_pk" PRIMARY KEY("season_id","quarter")
);
--> statement-breakpoint
CREATE TABLE "kept_member_groups" (
	"season_id" uuid NOT NULL,
	"first_round" smallint NOT NULL,
	"last_round" smallint NOT NULL,
	"start_date" date NOT NULL,
	"members" integer NOT NULL,
	CONSTRAINT "kept_member_groups_season_id_first_round_last_round_start_date_pk" PRIMARY KEY("season_id","first_round","last_round","start_date")
);
--> statement-breakpoint
CREATE TABLE "kept_progress" (
	"season_id" uuid NOT NULL,
	"first_round" smallint NOT NULL,
	"last_round" smallint NOT NULL,
	"start_date" date NOT NULL,
	"started_rounds" smallint NOT NULL,
	"done_rounds" smallint NOT NULL,
	"participants" integer NOT NULL,
	CONSTRAINT "kept_progress_season_id_first_round_last_round_start_date_started_rounds_done_rounds_pk" PRIMARY KEY("season_id","first_round","last_round","start_date","started_rounds","done_rounds")
);
--> statement-breakpoint
ALTER TABLE "kept_case_counts" ADD CONSTRAINT "kept_case_counts_season_id_seasons_id_fk" FOREIGN KEY ("season_id") REFERENCES "public"."seasons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kept_case_counts" ADD CONSTRAINT "kept_case_counts_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kept_choice_picks" ADD CONSTRAINT "kept_choice_picks_season_id_seasons_id_fk" FOREIGN KEY ("season_id") REFERENCES "public"."seasons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kept_choice_picks" ADD CONSTRAINT "kept_choice_picks_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kept_completion_quarters" ADD CONSTRAINT "kept_completion_quarters_season_id_seasons_id_fk" FOREIGN KEY ("season_id") REFERENCES "public"."seasons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kept_member_groups" ADD CONSTRAINT "kept_member_groups_season_id_seasons_id_fk" FOREIGN KEY ("season_id") REFERENCES "public"."seasons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kept_progress" ADD CONSTRAINT "kept_progress_season_id_seasons_id_fk" FOREIGN KEY ("season_id") REFERENCES "public"."seasons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "kept_case_counts_case_idx" ON "kept_case_counts" USING btree ("case_id");--> statement-breakpoint
CREATE INDEX "kept_choice_picks_case_idx" ON "kept_choice_picks" USING btree ("case_id");