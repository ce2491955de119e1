ALTER TABLE "seasons" DROP CONSTRAINT "seasons_project_id_projects_id_fk";
--> statement-breakpoint
ALTER TABLE "participant_assignments" DROP CONSTRAINT "participant_assignments_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "participant_assignments" DROP CONSTRAINT "participant_assignments_season_id_seasons_id_fk";
--> statement-breakpoint
ALTER TABLE "participant_assignments" DROP CONSTRAINT "participant_assignments_project_id_projects_id_fk";
--> statement-breakpoint
ALTER TABLE "case_answers" DROP CONSTRAINT "case_answers_user_season_round_case_id_user_season_round_cases_id_fk";
--> statement-breakpoint
ALTER TABLE "user_season_round_cases" DROP CONSTRAINT "user_season_round_cases_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "user_season_round_cases" DROP CONSTRAINT "user_season_round_cases_project_id_projects_id_fk";
--> statement-breakpoint
ALTER TABLE "user_season_round_cases" DROP CONSTRAINT "user_season_round_cases_season_id_seasons_id_fk";
--> statement-breakpoint
ALTER TABLE "seasons" ADD CONSTRAINT "seasons_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "participant_assignments" ADD CONSTRAINT "participant_assignments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "participant_assignments" ADD CONSTRAINT "participant_assignments_season_id_seasons_id_fk" FOREIGN KEY ("season_id") REFERENCES "public"."seasons"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "participant_assignments" ADD CONSTRAINT "participant_assignments_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_answers" ADD CONSTRAINT "case_answers_user_season_round_case_id_user_season_round_cases_id_fk" FOREIGN KEY ("user_season_round_case_id") REFERENCES "public"."user_season_round_cases"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_season_round_cases" ADD CONSTRAINT "user_season_round_cases_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_season_round_cases" ADD CONSTRAINT "user_season_round_cases_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_season_round_cases" ADD CONSTRAINT "user_season_round_cases_season_id_seasons_id_fk" FOREIGN KEY ("season_id") REFERENCES "public"."seasons"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "participant_assignments_season_idx" ON "participant_assignments" USING btree ("season_id");--> statement-breakpoint
CREATE INDEX "usrc_season_idx" ON "user_season_round_cases" USING btree ("season_id","round_number");